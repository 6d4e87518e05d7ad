import type { Meter } from '@meter/core';

export const DEMO = {
  email: 'demo@meter.local',
  password: 'demo-password',
  name: 'Demo Developer',
  serviceSlug: 'word-counter',
  customerExternalId: 'acme',
} as const;

/**
 * Seeds a developer, a metered service with a pricing rule, and a customer, once. Running it
 * again against the same database changes nothing.
 */
export async function seedDemo(meter: Meter, webhookUrl: string): Promise<{ created: boolean }> {
  let developer: Awaited<ReturnType<Meter['authenticate']>>;
  try {
    developer = await meter.authenticate({ email: DEMO.email, password: DEMO.password });
  } catch {
    developer = await meter.registerDeveloper({
      email: DEMO.email,
      password: DEMO.password,
      name: DEMO.name,
    });
  }
  const existing = await meter.store.getServiceBySlug(developer.id, DEMO.serviceSlug);
  if (existing) {
    if (existing.webhookUrl !== webhookUrl)
      await meter.updateService(developer.id, existing.id, { webhookUrl });
    return { created: false };
  }
  const service = await meter.createService(developer.id, {
    name: 'Word counter',
    slug: DEMO.serviceSlug,
    description: 'Counts words; charged per word.',
    webhookUrl,
    webhookSecret: 'whsec_demo_secret_do_not_use_in_production',
  });
  await meter.createPricingRule(developer.id, service.id, {
    name: 'Words',
    metricKey: 'words',
    unitName: 'word',
    pricingModel: 'per_unit',
    price: '0.01',
  });
  await meter.createCustomer(developer.id, {
    externalId: DEMO.customerExternalId,
    name: 'Acme Inc.',
    email: 'billing@acme.example',
    metadata: { plan: 'demo' },
  });
  return { created: true };
}
