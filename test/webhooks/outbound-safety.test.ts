import { createMeter, type Meter } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import { afterEach, describe, expect, it } from 'vitest';
import { startFlakyReceiver } from '../support/flaky-receiver.js';

describe('outbound safety: webhooks do not reach private networks unless allowed', () => {
  let meter: Meter | undefined;
  let receiver: Awaited<ReturnType<typeof startFlakyReceiver>> | undefined;
  afterEach(async () => {
    await meter?.close();
    await receiver?.close();
  });

  async function deliverTo(url: (port: string) => string, allowPrivateNetworks: boolean) {
    receiver = await startFlakyReceiver(() => 200);
    const port = new URL(receiver.url).port;
    meter = createMeter({
      store: await openStore('sqlite::memory:'),
      provider: simulatedProvider(),
      webhooks: { allowPrivateNetworks, timeoutMs: 2000 },
    });
    const dev = await meter.registerDeveloper({
      email: 'a@example.com',
      password: 'long enough pw',
      name: 'A',
    });
    const svc = await meter.createService(dev.id, { name: 'S', slug: 's', webhookUrl: url(port) });
    await meter.createPricingRule(dev.id, svc.id, {
      name: 'r',
      metricKey: 'm',
      unitName: 'u',
      pricingModel: 'per_unit',
      price: '0',
    });
    const cus = await meter.createCustomer(dev.id, { externalId: 'c' });
    const pr = await meter.createPaymentRequest(dev.id, { customerId: cus.id, amount: '1' });
    await meter.simulatePaid(dev.id, pr.id);
    await meter.recordUsage(dev.id, {
      service: 's',
      customer: 'c',
      metricKey: 'm',
      quantity: 1,
      idempotencyKey: 'k',
    });
    await meter.idle();
    return (await meter.listWebhookDeliveries(dev.id, {}, { limit: 1 })).items[0]!;
  }

  it.each([
    ['an IP literal on loopback', (p: string) => `http://127.0.0.1:${p}/hooks`],
    ['a name that resolves to loopback', (p: string) => `http://localhost:${p}/hooks`],
    ['an IPv6 loopback literal', (p: string) => `http://[::1]:${p}/hooks`],
  ])('refuses %s by default', async (_name, url) => {
    const delivery = await deliverTo(url, false);
    expect(delivery.status).toBe('pending');
    expect(delivery.lastStatusCode).toBeNull();
    expect(delivery.lastError).toMatch(/refused/);
    expect(receiver!.hits).toHaveLength(0);
  });

  it('delivers there when configuration allows private networks', async () => {
    const delivery = await deliverTo((p) => `http://127.0.0.1:${p}/hooks`, true);
    expect(delivery).toMatchObject({ status: 'sent', lastStatusCode: 200 });
    expect(receiver!.hits).toHaveLength(1);
  });
});
