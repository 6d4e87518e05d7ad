import { expect, it } from 'vitest';
import { type GetFixtures, ZERO_BALANCE } from './fixtures.js';

/** 50,000,000,000 CKB in shannons: past 2^53, well inside BIGINT. */
const BIG = 5_000_000_000_000_000_000n;

/** Crediting payment requests, their states, and amounts too large for a JS number. */
export function paymentTests(f: GetFixtures): void {
  it('20 parallel credits of one payment request: credited once', async () => {
    const { store, raw } = f();
    const t = await f().tenant();
    const request = await f().paymentRequest(t.developer.id, t.customer.id, 12_345n);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => f().credit(t.developer.id, request.id)),
    );
    expect(outcomes.filter((o) => o.outcome === 'credited')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'already_paid')).toHaveLength(19);
    expect(outcomes.find((o) => o.outcome === 'credited')).toMatchObject({
      request: { status: 'paid' },
      balance: { available: 12_345n, totalFunded: 12_345n },
    });
    expect(await f().balance(t.customer.id)).toEqual({
      available: 12_345n,
      totalFunded: 12_345n,
      totalSpent: 0n,
    });
    expect(await raw.ledgerEntries(t.customer.id)).toMatchObject([
      { direction: 'credit', amount: 12_345n, balanceAfter: 12_345n, referenceId: request.id },
    ]);
    expect(await raw.paymentRequest(request.id)).toEqual({ status: 'paid', amount: 12_345n });
    expect((await store.getPaymentRequest(t.developer.id, request.id))?.paidAt).toBeInstanceOf(Date);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('expired and cancelled requests are not credited; a provider-confirmed late payment is', async () => {
    const { store, raw } = f();
    const t = await f().tenant();
    const past = new Date(Date.now() - 1000);
    const expired = await f().paymentRequest(t.developer.id, t.customer.id, 100n, past);
    const outcome = await f().credit(t.developer.id, expired.id, true);
    expect(outcome).toMatchObject({ outcome: 'expired', request: { status: 'expired' } });
    expect(await raw.paymentRequest(expired.id)).toEqual({ status: 'expired', amount: 100n });
    expect(await f().credit(t.developer.id, expired.id, false)).toMatchObject({ outcome: 'expired' });
    expect(await f().balance(t.customer.id)).toEqual(ZERO_BALANCE);

    // Without expiry enforcement (the provider confirmed payment) a still-pending request is credited.
    const late = await f().paymentRequest(t.developer.id, t.customer.id, 70n, past);
    expect(await f().credit(t.developer.id, late.id, false)).toMatchObject({ outcome: 'credited' });

    const cancelled = await f().paymentRequest(t.developer.id, t.customer.id, 5n);
    expect(await store.closePaymentRequest(t.developer.id, cancelled.id, 'cancelled')).toMatchObject({
      status: 'cancelled',
    });
    expect(await store.closePaymentRequest(t.developer.id, cancelled.id, 'expired')).toBeNull();
    expect(await f().credit(t.developer.id, cancelled.id)).toMatchObject({ outcome: 'cancelled' });
    expect(await store.closePaymentRequest(t.developer.id, late.id, 'cancelled')).toBeNull();
    expect(await raw.paymentRequest(cancelled.id)).toEqual({ status: 'cancelled', amount: 5n });
    expect(await raw.paymentRequest(late.id)).toEqual({ status: 'paid', amount: 70n });
    expect(await f().credit(t.developer.id, 'pr_missing')).toEqual({ outcome: 'not_found' });
    expect(await f().balance(t.customer.id)).toEqual({ available: 70n, totalFunded: 70n, totalSpent: 0n });
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('50,000,000,000 CKB funds and charges exactly to the shannon', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    const request = await f().paymentRequest(t.developer.id, t.customer.id, BIG);
    expect(await raw.paymentRequest(request.id)).toEqual({ status: 'pending', amount: BIG });
    expect((await store.getPaymentRequest(t.developer.id, request.id))?.amount).toBe(BIG);
    const credit = await f().credit(t.developer.id, request.id);
    expect(credit).toMatchObject({ outcome: 'credited', balance: { available: BIG } });

    const one = await store.chargeUsage(f().charge(t, t.customer, id('k'), 1n));
    expect(one).toMatchObject({ outcome: 'charged', event: { balanceAfter: BIG - 1n } });
    const odd = 1_234_567_890_123_456_789n;
    const two = await store.chargeUsage(f().charge(t, t.customer, id('k'), odd));
    expect(two).toMatchObject({ outcome: 'charged', event: { amount: odd, balanceAfter: BIG - 1n - odd } });
    const tooMuch = await store.chargeUsage(f().charge(t, t.customer, id('k'), BIG));
    expect(tooMuch).toMatchObject({
      outcome: 'insufficient_balance',
      event: { amount: BIG, balanceAfter: BIG - 1n - odd },
    });
    expect(await f().balance(t.customer.id)).toEqual({
      available: BIG - 1n - odd,
      totalFunded: BIG,
      totalSpent: odd + 1n,
    });
    const rest = await store.chargeUsage(f().charge(t, t.customer, id('k'), BIG - 1n - odd));
    expect(rest).toMatchObject({ outcome: 'charged', event: { balanceAfter: 0n } });
    expect(await f().balance(t.customer.id)).toEqual({ available: 0n, totalFunded: BIG, totalSpent: BIG });

    const ledger = await raw.ledgerEntries(t.customer.id);
    expect(ledger.map((l) => [l.direction, l.amount, l.balanceAfter])).toEqual([
      ['credit', BIG, BIG],
      ['debit', 1n, BIG - 1n],
      ['debit', odd, BIG - 1n - odd],
      ['debit', BIG - 1n - odd, 0n],
    ]);
    const refused = (await raw.usageEvents(t.developer.id)).filter(
      (e) => e.status === 'insufficient_balance',
    );
    expect(refused.map((e) => e.amount)).toEqual([BIG]);
    const listed = await store.listLedgerEntries(
      t.developer.id,
      { customerId: t.customer.id },
      { limit: 10 },
    );
    expect(listed.items.map((l) => l.balanceAfter)).toEqual([0n, BIG - 1n - odd, BIG - 1n, BIG]);
    const summary = await store.dashboardSummary(t.developer.id, new Date());
    expect(summary.balances).toEqual([{ asset: 'CKB', available: 0n, totalFunded: BIG, totalSpent: BIG }]);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('a credit that would overflow BIGINT is refused and rolled back', async () => {
    const { store, raw } = f();
    const t = await f().tenant();
    await f().fund(t.developer.id, t.customer.id, BIG);
    const second = await f().paymentRequest(t.developer.id, t.customer.id, BIG);
    await expect(f().credit(t.developer.id, second.id)).rejects.toMatchObject({ code: 'conflict' });
    expect(await raw.paymentRequest(second.id)).toEqual({ status: 'pending', amount: BIG });
    expect(await f().balance(t.customer.id)).toEqual({ available: BIG, totalFunded: BIG, totalSpent: 0n });
    expect((await raw.ledgerEntries(t.customer.id)).map((e) => e.referenceId)).not.toContain(second.id);
    // Two such balances still sum exactly in the dashboard (no 64-bit overflow in SUM).
    const c2 = await f().customer(t.developer.id);
    await f().fund(t.developer.id, c2.id, BIG);
    expect((await store.dashboardSummary(t.developer.id, new Date())).balances[0]?.available).toBe(2n * BIG);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });
}
