import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AcceptedEventStore,
  createWebhookReceiver,
  fileEventStore,
  type WebhookReceiver,
} from '@meter/client';
import { createMeter } from '@meter/core';
import { fakeClock } from '@meter/core/testing';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import { describe, expect, it } from 'vitest';

/**
 * The receiver behind Meter's real dispatcher and retry schedule: the transport hands each
 * attempt's exact headers and body to `handle`, as an HTTP server would.
 */
describe('createWebhookReceiver behind the dispatcher', () => {
  it('a receiver whose store fails 3 times, then works, ends with exactly one accepted event', async () => {
    const clock = fakeClock(Date.parse('2026-03-01T00:00:00Z'));
    const events = await fileEventStore(join(mkdtempSync(join(tmpdir(), 'meter-e2e-')), 'events.jsonl'));
    let failures = 3;
    const flaky: AcceptedEventStore = {
      accept(deliveryId, event) {
        if (failures-- > 0) return Promise.reject(new Error('database is restarting'));
        return events.accept(deliveryId, event);
      },
    };
    const processed: unknown[] = [];
    let receiver: WebhookReceiver | undefined;

    const meter = createMeter({
      store: await openStore('sqlite::memory:'),
      provider: simulatedProvider(),
      clock,
      webhooks: {
        random: () => 0.5,
        transport: async (request) => {
          const answer = await receiver!.handle({ rawBody: request.body, headers: request.headers });
          return { status: answer.status, body: JSON.stringify(answer.body) };
        },
      },
    });
    const dev = await meter.registerDeveloper({
      email: 'r@example.com',
      password: 'a long password',
      name: 'R',
    });
    const service = await meter.createService(dev.id, {
      name: 'Words',
      slug: 'words',
      webhookUrl: 'https://hooks.example.com/meter',
    });
    receiver = createWebhookReceiver({
      secret: service.webhookSecret,
      store: flaky,
      onEvent: (event) => {
        processed.push(event);
      },
      onError: () => {},
      now: () => clock.now().getTime(),
    });
    await meter.createPricingRule(dev.id, service.id, {
      name: 'Words',
      metricKey: 'words',
      unitName: 'word',
      pricingModel: 'per_unit',
      price: '0.01',
    });
    const customer = await meter.createCustomer(dev.id, { externalId: 'acme', name: 'Acme' });
    const payment = await meter.createPaymentRequest(dev.id, {
      customerId: customer.id,
      amount: '1',
      asset: 'CKB',
    });
    await meter.simulatePaid(dev.id, payment.id);
    const charged = await meter.recordUsage(dev.id, {
      service: 'words',
      customer: 'acme',
      metricKey: 'words',
      quantity: 3,
      idempotencyKey: 'e2e-1',
    });
    expect(charged.status).toBe('charged');
    await meter.idle();

    const [delivery] = (await meter.listWebhookDeliveries(dev.id, {}, { limit: 5 })).items;
    for (let i = 0; i < 3; i++) {
      const due = (await meter.getWebhookDelivery(dev.id, delivery!.id)).nextAttemptAt!;
      clock.set(due);
      expect(await meter.webhooks.runDue()).toBe(1);
    }
    const done = await meter.getWebhookDelivery(dev.id, delivery!.id);
    expect(done).toMatchObject({ status: 'sent', attemptCount: 4 });
    expect(done.attempts.map((a) => a.statusCode)).toEqual([503, 503, 503, 200]);

    // A manual retry of a sent delivery is a duplicate for the receiver.
    const retried = await meter.retryWebhookDelivery(dev.id, delivery!.id);
    expect(retried.attempts.at(-1)).toMatchObject({
      statusCode: 200,
      responseExcerpt: expect.stringContaining('"duplicate":true'),
    });

    expect((await events.list()).map((e) => e.deliveryId)).toEqual([delivery!.id]);
    expect(processed).toEqual([JSON.parse(delivery!.payload)]);
    await events.close();
    await meter.close();
  });
});
