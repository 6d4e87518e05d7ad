import { randomBytes } from 'node:crypto';
import { createMeter, type Meter } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { createKnexFromUrl, openStore } from '@meter/store-knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlakyReceiver } from '../support/flaky-receiver.js';

const databases = [
  ['PostgreSQL', process.env.METER_TEST_POSTGRES_URL],
  ['MySQL/MariaDB', process.env.METER_TEST_MYSQL_URL],
] as const;

for (const [label, serverUrl] of databases) {
  describe.runIf(serverUrl)(`two dispatchers on one ${label} database`, () => {
    const name = `meter_dispatch_${randomBytes(4).toString('hex')}`;
    const url = new URL(serverUrl ?? 'postgres://x/x');
    let dbUrl: string;
    const meters: Meter[] = [];
    let receiver: Awaited<ReturnType<typeof startFlakyReceiver>>;

    beforeAll(async () => {
      const admin = createKnexFromUrl(serverUrl!);
      await admin.raw(`create database ${name}`);
      await admin.destroy();
      url.pathname = `/${name}`;
      dbUrl = url.toString();
      receiver = await startFlakyReceiver(() => 200);
    });
    afterAll(async () => {
      for (const m of meters) await m.close();
      await receiver?.close();
      const admin = createKnexFromUrl(serverUrl!);
      await admin.raw(`drop database if exists ${name}`);
      await admin.destroy();
    });

    it('never send one attempt twice', async () => {
      for (let i = 0; i < 2; i++) {
        meters.push(
          createMeter({
            store: await openStore(dbUrl),
            provider: simulatedProvider(),
            // Nothing is sent after commit: every delivery waits in the outbox for the two pollers.
            webhooks: { allowPrivateNetworks: true, dispatchAfterCommit: false, batchSize: 7 },
          }),
        );
      }
      const [a, b] = meters as [Meter, Meter];
      const dev = await a.registerDeveloper({
        email: 'd@example.com',
        password: 'long enough pw',
        name: 'D',
      });
      const svc = await a.createService(dev.id, { name: 'S', slug: 's', webhookUrl: receiver.url });
      await a.createPricingRule(dev.id, svc.id, {
        name: 'r',
        metricKey: 'm',
        unitName: 'u',
        pricingModel: 'per_unit',
        price: '0.01',
      });
      const cus = await a.createCustomer(dev.id, { externalId: 'c' });
      await a.simulatePaid(
        dev.id,
        (await a.createPaymentRequest(dev.id, { customerId: cus.id, amount: '100' })).id,
      );
      const total = 120;
      await Promise.all(
        Array.from({ length: total }, (_, i) =>
          (i % 2 ? a : b).recordUsage(dev.id, {
            service: 's',
            customer: 'c',
            metricKey: 'm',
            quantity: 1,
            idempotencyKey: `k${i}`,
          }),
        ),
      );
      expect(receiver.hits).toHaveLength(0);

      const drain = async (m: Meter) => {
        let attempted = 0;
        for (;;) {
          const n = await m.webhooks.runDue();
          if (n === 0) return attempted;
          attempted += n;
        }
      };
      const [byA, byB] = await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
      expect(byA! + byB!).toBeGreaterThan(0);
      expect(receiver.hits).toHaveLength(total);
      expect(new Set(receiver.hits.map((h) => h.deliveryId)).size).toBe(total);
      const deliveries = await a.listWebhookDeliveries(dev.id, {}, { limit: 1000 });
      expect(deliveries.items).toHaveLength(total);
      expect(
        deliveries.items.every((d) => d.status === 'sent' && d.attemptCount === 1 && d.attempts.length === 1),
      ).toBe(true);
    }, 60_000);
  });
}
