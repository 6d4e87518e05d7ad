import { createMeter, formatAmount } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';

const meter = createMeter({ store: await openStore('sqlite::memory:'), provider: simulatedProvider() });
meter.on('usage.charged', ({ event }) => {
  console.log(`usage.charged: ${event.quantity} ${event.metricKey} for ${event.customerExternalId}`);
});

const dev = await meter.registerDeveloper({
  email: 'me@example.com',
  password: 'a long password',
  name: 'Me',
});
const service = await meter.createService(dev.id, { name: 'Word counter', slug: 'words' });
await meter.createPricingRule(dev.id, service.id, {
  name: 'Words',
  metricKey: 'words',
  unitName: 'word',
  pricingModel: 'per_unit',
  price: '0.01',
});
const customer = await meter.createCustomer(dev.id, { externalId: 'acme', name: 'Acme Inc.' });

// Take a payment into the prepaid balance (simulated: confirmed at once).
const payment = await meter.createPaymentRequest(dev.id, {
  customerId: customer.id,
  amount: '1',
  asset: 'CKB',
});
await meter.simulatePaid(dev.id, payment.id);

const usage = { service: 'words', customer: 'acme', metricKey: 'words', quantity: 60 };
console.log(await meter.recordUsage(dev.id, { ...usage, idempotencyKey: 'doc-1' })); // charged 0.6
console.log(await meter.recordUsage(dev.id, { ...usage, idempotencyKey: 'doc-2' })); // insufficient_balance

const balance = await meter.getBalance(dev.id, customer.id, 'CKB');
console.log('available:', formatAmount(balance.available, 'CKB'));
const ledger = await meter.listLedgerEntries(dev.id, { customerId: customer.id }, { limit: 10 });
for (const entry of ledger.items) console.log(entry.type, entry.direction, formatAmount(entry.amount, 'CKB'));

await meter.close();
