import { expect, it } from 'vitest';
import type { NewWebhookAttempt } from '../../ports/meter-store.js';
import type { GetFixtures } from './fixtures.js';

/** The webhook outbox: written with the charge or credit, claimed under leases, attempts recorded. */
export function webhookTests(f: GetFixtures): void {
  const attempt = (
    id: (p: string) => string,
    at: number,
    fields: Partial<NewWebhookAttempt> = {},
  ): NewWebhookAttempt => ({
    id: id('wha'),
    attemptedAt: new Date(at),
    url: 'https://example.test/hook',
    statusCode: null,
    latencyMs: 0,
    error: null,
    responseExcerpt: null,
    ...fields,
  });

  it('webhook outbox: written with the charge, attempts recorded oldest first under the lease', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    await f().fund(t.developer.id, t.customer.id, 100n);
    const input = f().charge(t, t.customer, id('k'), 10n, { webhook: true });
    const deliveryId = input.webhook!.deliveryId;
    expect(await store.chargeUsage(input)).toMatchObject({ outcome: 'charged', replay: false, deliveryId });
    expect(await raw.webhookDeliveries(t.developer.id)).toEqual([
      { id: deliveryId, eventId: input.usageEventId, status: 'pending', payload: input.webhook!.payload },
    ]);
    // A refused charge writes no delivery.
    await store.chargeUsage(f().charge(t, t.customer, id('k'), 1000n, { webhook: true }));
    expect((await raw.webhookDeliveries(t.developer.id)).map((d) => d.id)).toEqual([deliveryId]);

    const t0 = Date.now();
    const claim = (token: string, now = t0) =>
      store.claimWebhookDeliveries({
        now: new Date(now),
        limit: 10,
        leaseMs: 60_000,
        leaseToken: token,
        ids: [deliveryId],
      });
    const [claimed] = await claim('lease-a');
    expect(claimed).toMatchObject({
      id: deliveryId,
      status: 'pending',
      attemptCount: 0,
      payload: input.webhook!.payload,
    });
    expect(await claim('lease-b')).toEqual([]);
    // Another lease's record writes nothing.
    expect(
      await store.recordWebhookAttempt(deliveryId, 'lease-b', attempt(id, t0), {
        status: 'sent',
        nextAttemptAt: null,
      }),
    ).toBe(false);
    const retryAt = new Date(t0 + 5000);
    expect(
      await store.recordWebhookAttempt(
        deliveryId,
        'lease-a',
        attempt(id, t0, { statusCode: 500, latencyMs: 12, error: 'receiver answered 500' }),
        { status: 'pending', nextAttemptAt: retryAt },
      ),
    ).toBe(true);
    expect(await store.getWebhookDelivery(t.developer.id, deliveryId)).toMatchObject({
      status: 'pending',
      nextAttemptAt: retryAt,
    });
    // Not due before nextAttemptAt, due at it.
    const due = (token: string, now: number) =>
      store.claimWebhookDeliveries({
        now: new Date(now),
        limit: 10,
        leaseMs: 60_000,
        leaseToken: token,
        developerId: t.developer.id,
      });
    expect(await due('lease-c', t0 + 4999)).toEqual([]);
    expect((await due('lease-c', t0 + 5000)).map((d) => [d.id, d.attemptCount])).toEqual([[deliveryId, 1]]);
    expect(
      await store.recordWebhookAttempt(
        deliveryId,
        'lease-c',
        attempt(id, t0 + 5000, { statusCode: 200, latencyMs: 8.6, responseExcerpt: 'ok' }),
        { status: 'sent', nextAttemptAt: null },
      ),
    ).toBe(true);
    const delivery = await store.getWebhookDelivery(t.developer.id, deliveryId);
    expect(delivery).toMatchObject({
      status: 'sent',
      attemptCount: 2,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      payload: input.webhook!.payload,
      eventId: input.usageEventId,
      serviceId: t.service.id,
      eventType: 'usage.charged',
    });
    expect(delivery?.attempts.map((a) => [a.statusCode, a.latencyMs, a.responseExcerpt, a.error])).toEqual([
      [500, 12, null, 'receiver answered 500'],
      [200, 9, 'ok', null],
    ]);
    // Sent deliveries are no longer due; a manual retry claims them by id, only for their developer.
    expect(await due('lease-d', t0 + 10_000_000)).toEqual([]);
    const other = await f().tenant();
    const manual = (developerId: string, token: string) =>
      store.claimWebhookDeliveries({
        now: new Date(t0),
        limit: 1,
        leaseMs: 60_000,
        leaseToken: token,
        ids: [deliveryId],
        includeFinal: true,
        developerId,
      });
    expect(await manual(other.developer.id, 'lease-e')).toEqual([]);
    expect((await manual(t.developer.id, 'lease-e')).map((d) => d.status)).toEqual(['sent']);
    expect(
      await store.recordWebhookAttempt('whd_missing', 'lease-e', attempt(id, t0), {
        status: 'failed',
        nextAttemptAt: null,
      }),
    ).toBe(false);

    const second = f().charge(t, t.customer, id('k'), 1n, { webhook: true });
    await store.chargeUsage(second);
    const page = await store.listWebhookDeliveries(t.developer.id, {}, { limit: 10 });
    expect(page.items.map((d) => [d.id, d.attempts.length])).toEqual([
      [second.webhook!.deliveryId, 0],
      [deliveryId, 3 - 1],
    ]);
    const sent = await store.listWebhookDeliveries(t.developer.id, { status: 'sent' }, { limit: 10 });
    expect(sent.items.map((d) => d.id)).toEqual([deliveryId]);
    const first = await store.listWebhookDeliveries(t.developer.id, {}, { limit: 1 });
    expect(first.items.map((d) => d.id)).toEqual([second.webhook!.deliveryId]);
    const rest = await store.listWebhookDeliveries(
      t.developer.id,
      {},
      { limit: 1, cursor: first.nextCursor! },
    );
    expect(rest).toMatchObject({ items: [{ id: deliveryId }], nextCursor: null });
  });

  it('an expired lease can be claimed again, and the old lease can no longer record', async () => {
    const { store, id } = f();
    const t = await f().tenant();
    await f().fund(t.developer.id, t.customer.id, 100n);
    const input = f().charge(t, t.customer, id('k'), 1n, { webhook: true });
    await store.chargeUsage(input);
    const t0 = Date.now();
    const claim = (token: string, now: number) =>
      store.claimWebhookDeliveries({
        now: new Date(now),
        limit: 10,
        leaseMs: 1000,
        leaseToken: token,
        developerId: t.developer.id,
      });
    expect(await claim('dead', t0)).toHaveLength(1);
    expect(await claim('alive', t0 + 999)).toEqual([]);
    expect(await claim('alive', t0 + 1000)).toHaveLength(1);
    const done = { status: 'sent' as const, nextAttemptAt: null };
    expect(
      await store.recordWebhookAttempt(input.webhook!.deliveryId, 'dead', attempt(id, t0 + 1001), done),
    ).toBe(false);
    expect(
      await store.recordWebhookAttempt(input.webhook!.deliveryId, 'alive', attempt(id, t0 + 1001), done),
    ).toBe(true);
    expect((await store.getWebhookDelivery(t.developer.id, input.webhook!.deliveryId))?.attemptCount).toBe(1);
  });

  it('racing claimers never get the same delivery', async () => {
    const { store, id } = f();
    const t = await f().tenant();
    await f().fund(t.developer.id, t.customer.id, 1000n);
    const expected: string[] = [];
    for (let i = 0; i < 30; i++) {
      const input = f().charge(t, t.customer, id('k'), 1n, { webhook: true });
      await store.chargeUsage(input);
      expected.push(input.webhook!.deliveryId);
    }
    const now = new Date(Date.now() + 1000);
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        store.claimWebhookDeliveries({
          now,
          limit: 8,
          leaseMs: 60_000,
          leaseToken: `racer-${i}`,
          developerId: t.developer.id,
        }),
      ),
    );
    const all = claims.flat().map((d) => d.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(30);
    expect([...all].sort()).toEqual([...expected].sort());
  });

  it('failed deliveries of a service are requeued since a time', async () => {
    const { store, id } = f();
    const t = await f().tenant();
    await f().fund(t.developer.id, t.customer.id, 100n);
    const t0 = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const input = {
        ...f().charge(t, t.customer, id('k'), 1n, { webhook: true }),
        now: new Date(t0 + i * 1000),
      };
      await store.chargeUsage(input);
      ids.push(input.webhook!.deliveryId);
      await store.claimWebhookDeliveries({
        now: new Date(t0 + 5000),
        limit: 1,
        leaseMs: 1000,
        leaseToken: `l${i}`,
        ids: [input.webhook!.deliveryId],
      });
      await store.recordWebhookAttempt(
        input.webhook!.deliveryId,
        `l${i}`,
        attempt(id, t0 + 5000, { error: 'down' }),
        {
          status: 'failed',
          nextAttemptAt: null,
        },
      );
    }
    const other = await f().tenant();
    expect(
      await store.requeueFailedDeliveries(
        other.developer.id,
        t.service.id,
        new Date(t0),
        new Date(t0 + 9000),
      ),
    ).toBe(0);
    expect(
      await store.requeueFailedDeliveries(
        t.developer.id,
        t.service.id,
        new Date(t0 + 1000),
        new Date(t0 + 9000),
      ),
    ).toBe(2);
    const statuses = await Promise.all(
      ids.map(async (d) => (await store.getWebhookDelivery(t.developer.id, d))?.status),
    );
    expect(statuses).toEqual(['failed', 'pending', 'pending']);
    const due = await store.claimWebhookDeliveries({
      now: new Date(t0 + 9000),
      limit: 10,
      leaseMs: 1000,
      leaseToken: 'again',
      developerId: t.developer.id,
    });
    expect(due.map((d) => d.id).sort()).toEqual(ids.slice(1).sort());
  });

  it('a credit stores its balance.funded event and writes its deliveries, once', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    const request = await f().paymentRequest(t.developer.id, t.customer.id, 50n);
    const eventId = id('evt');
    const payload = `{"id":"${eventId}","type":"balance.funded"}`;
    const deliveryId = id('whd');
    const input = {
      developerId: t.developer.id,
      paymentRequestId: request.id,
      ledgerEntryId: id('led'),
      now: new Date(),
      enforceExpiry: true,
      event: { id: eventId, payload },
      webhooks: [{ deliveryId, serviceId: t.service.id, eventType: 'balance.funded', payload }],
    };
    expect((await store.creditPaymentRequest(input)).outcome).toBe('credited');
    expect(
      (
        await store.creditPaymentRequest({
          ...input,
          ledgerEntryId: id('led'),
          event: { id: id('evt'), payload },
          webhooks: [
            { deliveryId: id('whd'), serviceId: t.service.id, eventType: 'balance.funded', payload },
          ],
        })
      ).outcome,
    ).toBe('already_paid');
    expect(await raw.webhookDeliveries(t.developer.id)).toEqual([
      { id: deliveryId, eventId, status: 'pending', payload },
    ]);
    const events = await store.listEvents(t.developer.id, { type: 'balance.funded' }, { limit: 10 });
    expect(events.items).toEqual([
      {
        id: eventId,
        developerId: t.developer.id,
        type: 'balance.funded',
        subjectId: request.id,
        payload,
        createdAt: input.now,
      },
    ]);
    expect((await store.listEvents(t.developer.id, { type: 'usage.charged' }, { limit: 10 })).items).toEqual(
      [],
    );
    const other = await f().tenant();
    expect((await store.listEvents(other.developer.id, {}, { limit: 10 })).items).toEqual([]);
  });
}
