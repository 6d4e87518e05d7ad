import { expect, it } from 'vitest';
import type { Harness } from './harness.js';

/** Payment-request states, cursor pagination, the webhook outbox and the dashboard summary. */
export function listTests(h: () => Harness): void {
  it('expired requests are not credited when expiry is enforced', async () => {
    const { store } = h();
    const t = await h().tenant();
    const past = new Date(Date.now() - 1000);
    const expired = await h().paymentRequest(t.developer.id, t.customer.id, 100n, past);
    const outcome = await h().credit(t.developer.id, expired.id, true);
    expect(outcome).toMatchObject({ outcome: 'expired', request: { status: 'expired' } });
    expect((await store.getPaymentRequest(t.developer.id, expired.id))?.status).toBe('expired');
    expect(await h().credit(t.developer.id, expired.id, false)).toMatchObject({ outcome: 'expired' });
    expect(await h().rawBalance(t.customer.id)).toEqual({ available: 0n, totalFunded: 0n, totalSpent: 0n });

    // A provider-confirmed payment (no expiry enforcement) of a still-pending request is credited.
    const late = await h().paymentRequest(t.developer.id, t.customer.id, 70n, past);
    expect(await h().credit(t.developer.id, late.id, false)).toMatchObject({ outcome: 'credited' });

    const cancelled = await h().paymentRequest(t.developer.id, t.customer.id, 5n);
    expect(await store.closePaymentRequest(t.developer.id, cancelled.id, 'cancelled')).toMatchObject({
      status: 'cancelled',
    });
    expect(await store.closePaymentRequest(t.developer.id, cancelled.id, 'expired')).toBeNull();
    expect(await h().credit(t.developer.id, cancelled.id)).toMatchObject({ outcome: 'cancelled' });
    expect(await store.closePaymentRequest(t.developer.id, late.id, 'cancelled')).toBeNull();
    expect(await h().rawBalance(t.customer.id)).toEqual({ available: 70n, totalFunded: 70n, totalSpent: 0n });
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('lists are newest first with cursors, and filter', async () => {
    const { store } = h();
    const t = await h().tenant();
    const customers = [t.customer];
    for (let i = 0; i < 4; i++) customers.push(await h().customer(t.developer.id));
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = await store.listCustomers(t.developer.id, { limit: 2, cursor });
      sizes.push(page.items.length);
      seen.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(customers.map((c) => c.id).reverse());
    const exact = await store.listCustomers(t.developer.id, { limit: 5 });
    expect(exact.nextCursor).toBeNull();

    const now = new Date();
    const pending = await h().paymentRequest(t.developer.id, t.customer.id, 1n);
    const stale = await h().paymentRequest(t.developer.id, customers[1]!.id, 2n, new Date(now.getTime() - 1));
    const markedExpired = await h().paymentRequest(t.developer.id, t.customer.id, 3n);
    await store.closePaymentRequest(t.developer.id, markedExpired.id, 'expired');
    const paid = await h().paymentRequest(t.developer.id, t.customer.id, 4n);
    await h().credit(t.developer.id, paid.id);
    const list = async (filter: {
      status?: 'pending' | 'paid' | 'expired' | 'cancelled';
      customerId?: string;
    }) =>
      (await store.listPaymentRequests(t.developer.id, { ...filter, now }, { limit: 10 })).items.map(
        (r) => r.id,
      );
    expect(await list({})).toEqual([paid.id, markedExpired.id, stale.id, pending.id]);
    expect(await list({ status: 'pending' })).toEqual([pending.id]);
    expect(await list({ status: 'expired' })).toEqual([markedExpired.id, stale.id]);
    expect(await list({ status: 'paid' })).toEqual([paid.id]);
    expect(await list({ status: 'cancelled' })).toEqual([]);
    expect(await list({ customerId: customers[1]!.id })).toEqual([stale.id]);
    const p1 = await store.listPaymentRequests(t.developer.id, { now }, { limit: 3 });
    const p2 = await store.listPaymentRequests(t.developer.id, { now }, { limit: 3, cursor: p1.nextCursor! });
    expect([...p1.items, ...p2.items].map((r) => r.id)).toEqual(await list({}));
    expect(p2.nextCursor).toBeNull();
    expect(p1.items[0]).toMatchObject({
      amount: 4n,
      status: 'paid',
      metadata: { note: 'test' },
      provider: 'simulated',
    });

    await store.chargeUsage(h().charge(t, t.customer, 'u1', 1n));
    await store.chargeUsage(h().charge(t, t.customer, 'u2', 1000n));
    const usage = await store.listUsageEvents(
      t.developer.id,
      { status: 'insufficient_balance' },
      { limit: 10 },
    );
    expect(usage.items.map((u) => u.idempotencyKey)).toEqual(['u2']);
    expect(
      (await store.listUsageEvents(t.developer.id, { serviceId: t.service.id }, { limit: 10 })).items,
    ).toHaveLength(2);
    expect(
      (await store.listUsageEvents(t.developer.id, { customerId: customers[1]!.id }, { limit: 10 })).items,
    ).toEqual([]);
    const ledger = await store.listLedgerEntries(
      t.developer.id,
      { customerId: t.customer.id, asset: 'CKB' },
      { limit: 1 },
    );
    expect(ledger.items).toMatchObject([
      { type: 'usage', direction: 'debit', amount: 1n, balanceAfter: 3n, referenceType: 'usage_event' },
    ]);
    expect(ledger.nextCursor).not.toBeNull();
  });

  it('webhook outbox: written with the charge, attempts recorded oldest first', async () => {
    const { store, id, knex } = h();
    const t = await h().tenant();
    await h().fund(t.developer.id, t.customer.id, 100n);
    const input = h().charge(t, t.customer, id('k'), 10n, { webhook: true });
    const outcome = await store.chargeUsage(input);
    expect(outcome).toMatchObject({
      outcome: 'charged',
      replay: false,
      deliveryId: input.webhook!.deliveryId,
    });
    const deliveryId = input.webhook!.deliveryId;
    expect(await knex('webhook_deliveries').where({ id: deliveryId }).first()).toMatchObject({
      payload: input.webhook!.payload,
      status: 'pending',
      event_id: input.usageEventId,
    });
    const refused = h().charge(t, t.customer, id('k'), 1000n, { webhook: true });
    await store.chargeUsage(refused);
    expect(await h().rawCount('webhook_deliveries', { id: refused.webhook!.deliveryId })).toBe(0);

    const base = { url: 'https://example.test/hook', responseExcerpt: null };
    const t0 = Date.now();
    await store.recordWebhookAttempt(
      deliveryId,
      {
        ...base,
        id: id('wha'),
        attemptedAt: new Date(t0),
        statusCode: 500,
        latencyMs: 12,
        error: 'receiver answered 500',
      },
      'failed',
    );
    await store.recordWebhookAttempt(
      deliveryId,
      {
        ...base,
        id: id('wha'),
        attemptedAt: new Date(t0 + 10),
        statusCode: 200,
        latencyMs: 8.6,
        error: null,
        responseExcerpt: 'ok',
      },
      'sent',
    );
    const delivery = await store.getWebhookDelivery(t.developer.id, deliveryId);
    expect(delivery).toMatchObject({
      status: 'sent',
      attemptCount: 2,
      lastStatusCode: 200,
      lastError: null,
      payload: input.webhook!.payload,
    });
    expect(delivery?.attempts.map((a) => [a.statusCode, a.latencyMs, a.responseExcerpt])).toEqual([
      [500, 12, null],
      [200, 9, 'ok'],
    ]);
    await expect(
      store.recordWebhookAttempt(
        'whd_missing',
        { ...base, id: id('wha'), attemptedAt: new Date(), statusCode: null, latencyMs: 0, error: 'x' },
        'failed',
      ),
    ).rejects.toMatchObject({ code: 'not_found' });

    const second = h().charge(t, t.customer, id('k'), 1n, { webhook: true });
    await store.chargeUsage(second);
    const page = await store.listWebhookDeliveries(t.developer.id, {}, { limit: 10 });
    expect(page.items.map((d) => [d.id, d.attempts.length])).toEqual([
      [second.webhook!.deliveryId, 0],
      [deliveryId, 2],
    ]);
    expect(
      (await store.listWebhookDeliveries(t.developer.id, { status: 'sent' }, { limit: 10 })).items.map(
        (d) => d.id,
      ),
    ).toEqual([deliveryId]);
  });

  it('dashboard summary counts and sums per developer', async () => {
    const { store, id } = h();
    const t = await h().tenant();
    const c2 = await h().customer(t.developer.id);
    await h().fund(t.developer.id, t.customer.id, 300n);
    await h().fund(t.developer.id, c2.id, 200n);
    await h().paymentRequest(t.developer.id, c2.id, 1n);
    await store.chargeUsage(h().charge(t, t.customer, id('k'), 50n, { webhook: true }));
    await store.chargeUsage(h().charge(t, c2, id('k'), 500n));
    expect(await store.dashboardSummary(t.developer.id, new Date())).toEqual({
      customers: 2,
      services: 1,
      balances: [{ asset: 'CKB', available: 450n, totalFunded: 500n, totalSpent: 50n }],
      usage: { charged: 1, insufficientBalance: 1 },
      paymentRequests: { pending: 1, paid: 2, expired: 0 },
      webhookDeliveries: { pending: 1, sent: 0, failed: 0 },
    });
  });
}
