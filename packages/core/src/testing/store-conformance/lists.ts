import { expect, it } from 'vitest';
import type { PaymentStatus } from '../../domain/types.js';
import type { GetFixtures } from './fixtures.js';

/** Cursor pagination and filters, and the dashboard summary. */
export function listTests(f: GetFixtures): void {
  it('lists are newest first with cursors, and filter', async () => {
    const { store } = f();
    const t = await f().tenant();
    const customers = [t.customer];
    for (let i = 0; i < 4; i++) customers.push(await f().customer(t.developer.id));
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
    expect((await store.listCustomers(t.developer.id, { limit: 5 })).nextCursor).toBeNull();

    const now = new Date();
    const pending = await f().paymentRequest(t.developer.id, t.customer.id, 1n);
    const stale = await f().paymentRequest(t.developer.id, customers[1]!.id, 2n, new Date(now.getTime() - 1));
    const markedExpired = await f().paymentRequest(t.developer.id, t.customer.id, 3n);
    await store.closePaymentRequest(t.developer.id, markedExpired.id, 'expired');
    const paid = await f().paymentRequest(t.developer.id, t.customer.id, 4n);
    await f().credit(t.developer.id, paid.id);
    const list = async (filter: { status?: PaymentStatus; customerId?: string }) =>
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

    await store.chargeUsage(f().charge(t, t.customer, 'u1', 1n));
    await store.chargeUsage(f().charge(t, t.customer, 'u2', 1000n));
    const usage = await store.listUsageEvents(
      t.developer.id,
      { status: 'insufficient_balance' },
      { limit: 10 },
    );
    expect(usage.items.map((u) => u.idempotencyKey)).toEqual(['u2']);
    expect(
      (await store.listUsageEvents(t.developer.id, { serviceId: t.service.id }, { limit: 10 })).items.map(
        (u) => u.idempotencyKey,
      ),
    ).toEqual(['u2', 'u1']);
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
    const older = await store.listLedgerEntries(
      t.developer.id,
      { customerId: t.customer.id },
      { limit: 10, cursor: ledger.nextCursor! },
    );
    expect(older).toMatchObject({
      items: [{ type: 'funding', direction: 'credit', amount: 4n, referenceId: paid.id }],
      nextCursor: null,
    });
  });

  it('dashboard summary counts and sums per developer, payment requests by effective status', async () => {
    const { store, id } = f();
    const t = await f().tenant();
    const c2 = await f().customer(t.developer.id);
    await f().fund(t.developer.id, t.customer.id, 300n);
    await f().fund(t.developer.id, c2.id, 200n);
    const now = new Date();
    await f().paymentRequest(t.developer.id, c2.id, 1n);
    await f().paymentRequest(t.developer.id, c2.id, 2n, new Date(now.getTime() - 1));
    const closed = await f().paymentRequest(t.developer.id, c2.id, 3n);
    await store.closePaymentRequest(t.developer.id, closed.id, 'expired');
    const cancelled = await f().paymentRequest(t.developer.id, c2.id, 4n);
    await store.closePaymentRequest(t.developer.id, cancelled.id, 'cancelled');
    await store.chargeUsage(f().charge(t, t.customer, id('k'), 50n, { webhook: true }));
    await store.chargeUsage(f().charge(t, c2, id('k'), 500n));
    expect(await store.dashboardSummary(t.developer.id, now)).toEqual({
      customers: 2,
      services: 1,
      balances: [{ asset: 'CKB', available: 450n, totalFunded: 500n, totalSpent: 50n }],
      usage: { charged: 1, insufficientBalance: 1 },
      paymentRequests: { pending: 1, paid: 2, expired: 2 },
      webhookDeliveries: { pending: 1, sent: 0, failed: 0 },
    });
    // The same rows an hour later: the pending request has expired too.
    const later = new Date(now.getTime() + 2 * 3_600_000);
    expect((await store.dashboardSummary(t.developer.id, later)).paymentRequests).toEqual({
      pending: 0,
      paid: 2,
      expired: 3,
    });
  });
}
