// Runs the BUILT packages (dist/, no source condition), as a consumer would: `npm run build && node scripts/dist-smoke.mjs`.
import { createMeter } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';

const meter = createMeter({ store: await openStore('sqlite::memory:'), provider: simulatedProvider() });
const dev = await meter.registerDeveloper({ email: 'x@example.com', password: 'long enough pw', name: 'X' });
const svc = await meter.createService(dev.id, { name: 'S', slug: 's' });
await meter.createPricingRule(dev.id, svc.id, {
  name: 'r',
  metricKey: 'm',
  unitName: 'u',
  pricingModel: 'per_unit',
  price: '0.5',
});
const cus = await meter.createCustomer(dev.id, { externalId: 'c' });
const pr = await meter.createPaymentRequest(dev.id, { customerId: cus.id, amount: '1' });
await meter.simulatePaid(dev.id, pr.id);
console.log(
  await meter.recordUsage(dev.id, {
    service: 's',
    customer: 'c',
    metricKey: 'm',
    quantity: 1,
    idempotencyKey: 'k',
  }),
);
await meter.close();

// @meter/client from its build: a signed body verifies, a tampered one does not.
const { createMeterClient, verifyWebhook } = await import('@meter/client');
const { signWebhook } = await import('@meter/core');
const body = JSON.stringify({ id: 'use_1', type: 'usage.charged', deliveryId: 'whd_1' });
const timestamp = String(Date.now());
const headers = {
  'x-meter-timestamp': timestamp,
  'x-meter-signature': signWebhook('whsec_smoke_secret_123', timestamp, body),
};
const good = verifyWebhook({ rawBody: body, headers, secret: 'whsec_smoke_secret_123' });
const bad = verifyWebhook({ rawBody: `${body} `, headers, secret: 'whsec_smoke_secret_123' });
if (!good.ok || bad.ok || typeof createMeterClient !== 'function')
  throw new Error('@meter/client dist smoke failed');
console.log('@meter/client: verifyWebhook ok');
