import { createHmac } from 'node:crypto';
import { fakeClock } from '@meter/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startFlakyReceiver } from '../support/flaky-receiver.js';
import { fund, setupFixture, startApp, type TestApp, usage } from '../support/harness.js';

const HOUR = 3600_000;

describe('webhook delivery: the retry schedule, driven by a fake clock', () => {
  let app: TestApp | undefined;
  let receiver: Awaited<ReturnType<typeof startFlakyReceiver>> | undefined;
  afterEach(async () => {
    await app?.close();
    await receiver?.close();
  });

  async function chargedDelivery(answer: Parameters<typeof startFlakyReceiver>[0]) {
    const clock = fakeClock(Date.parse('2026-03-01T00:00:00Z'));
    receiver = await startFlakyReceiver(answer);
    app = await startApp({ clock });
    const f = await setupFixture(app.api, { price: '1', webhookUrl: receiver.url });
    await fund(app.api, f.token, f.customerId, '10');
    const charged = await app.api.post('/api/usage-events', usage(f, 1, 'k-1'), f.token);
    expect(charged.body.status).toBe('charged');
    await app.meter.idle();
    const [delivery] = (await app.meter.listWebhookDeliveries(f.developerId, {}, { limit: 10 })).items;
    return { clock, f, deliveryId: delivery!.id, meter: app.meter };
  }

  it('a receiver that fails 3 times then succeeds ends with exactly one accepted event', async () => {
    const { clock, f, deliveryId, meter } = await chargedDelivery((n) => (n <= 3 ? 503 : 200));
    const get = () => meter.getWebhookDelivery(f.developerId, deliveryId);
    expect(await get()).toMatchObject({ status: 'pending', attemptCount: 1 });

    // Not due yet: nothing is attempted before nextAttemptAt.
    expect(await meter.webhooks.runDue()).toBe(0);
    for (const wait of [5_000, 5 * 60_000, 30 * 60_000]) {
      const before = await get();
      const due = before.nextAttemptAt!.getTime() - clock.now().getTime();
      expect(due).toBeGreaterThanOrEqual(wait * 0.9 - 1);
      expect(due).toBeLessThanOrEqual(wait * 1.1 + 1);
      clock.advance(due);
      expect(await meter.webhooks.runDue()).toBe(1);
    }
    const done = await get();
    expect(done).toMatchObject({ status: 'sent', attemptCount: 4, nextAttemptAt: null, lastStatusCode: 200 });
    expect(done.attempts.map((a) => a.statusCode)).toEqual([503, 503, 503, 200]);
    expect(receiver!.accepted.size).toBe(1);
    expect(receiver!.hits).toHaveLength(4);
    // Same delivery id and byte-identical body on every attempt; timestamp and signature fresh each time.
    expect(new Set(receiver!.hits.map((h) => h.deliveryId))).toEqual(new Set([deliveryId]));
    expect(new Set(receiver!.hits.map((h) => h.rawBody)).size).toBe(1);
    expect(new Set(receiver!.hits.map((h) => h.timestamp)).size).toBe(4);
    for (const hit of receiver!.hits) {
      const expected = createHmac('sha256', f.webhookSecret)
        .update(`${hit.timestamp}.${hit.rawBody}`)
        .digest('hex');
      expect(hit.signature).toBe(expected);
    }
    clock.advance(24 * HOUR);
    expect(await meter.webhooks.runDue()).toBe(0);
  });

  it('is marked failed after the eighth attempt; a bulk replay gives it one more', async () => {
    let up = false;
    const { clock, f, deliveryId, meter } = await chargedDelivery(() => (up ? 200 : 500));
    for (let i = 0; i < 7; i++) {
      clock.advance(11 * HOUR);
      expect(await meter.webhooks.runDue()).toBe(1);
    }
    const failed = await meter.getWebhookDelivery(f.developerId, deliveryId);
    expect(failed).toMatchObject({ status: 'failed', attemptCount: 8, nextAttemptAt: null });
    clock.advance(11 * HOUR);
    expect(await meter.webhooks.runDue()).toBe(0);

    up = true;
    const since = new Date(clock.now().getTime() - 1000 * HOUR);
    expect(await meter.retryFailedDeliveries(f.developerId, f.serviceId, since)).toEqual({ requeued: 1 });
    await meter.idle();
    await meter.webhooks.runDue();
    expect(await meter.getWebhookDelivery(f.developerId, deliveryId)).toMatchObject({
      status: 'sent',
      attemptCount: 9,
    });
    expect(receiver!.accepted.size).toBe(1);
  });

  it('a redirect is not followed: it is a failed attempt', async () => {
    const { f, deliveryId, meter } = await chargedDelivery(() => 'redirect');
    const delivery = await meter.getWebhookDelivery(f.developerId, deliveryId);
    expect(delivery).toMatchObject({
      status: 'pending',
      lastStatusCode: 302,
      lastError: 'receiver answered 302',
    });
    expect(receiver!.hits).toHaveLength(1);
  });
});
