import { type Meter, MeterError } from '@meter/core';

export const DEMO = {
  email: 'demo@meter.local',
  password: 'demo-password',
  name: 'Demo Developer',
  serviceSlug: 'word-counter',
  customerExternalId: 'acme',
} as const;

/** Several processes may start on one new database at once: the one whose write lost the race reads the winner's. */
const isConflict = (err: unknown) => err instanceof MeterError && err.code === 'conflict';

async function demoDeveloper(meter: Meter) {
  const login = () => meter.authenticate({ email: DEMO.email, password: DEMO.password });
  try {
    return await login();
  } catch {
    try {
      return await meter.registerDeveloper({ email: DEMO.email, password: DEMO.password, name: DEMO.name });
    } catch (err) {
      if (isConflict(err)) return login();
      throw err;
    }
  }
}

/**
 * Seeds a developer, a metered service with a pricing rule, and a customer, once. Running it
 * again against the same database changes nothing, also from several processes at once.
 */
export async function seedDemo(meter: Meter, webhookUrl: string): Promise<{ created: boolean }> {
  const developer = await demoDeveloper(meter);
  const existing = await meter.store.getServiceBySlug(developer.id, DEMO.serviceSlug);
  if (existing) {
    if (existing.webhookUrl !== webhookUrl)
      await meter.updateService(developer.id, existing.id, { webhookUrl });
    return { created: false };
  }
  let service: Awaited<ReturnType<Meter['createService']>>;
  try {
    service = await meter.createService(developer.id, {
      name: 'Word counter',
      slug: DEMO.serviceSlug,
      description: 'Counts words; charged per word.',
      webhookUrl,
      webhookSecret: 'whsec_demo_secret_do_not_use_in_production',
    });
  } catch (err) {
    if (isConflict(err)) return { created: false };
    throw err;
  }
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
