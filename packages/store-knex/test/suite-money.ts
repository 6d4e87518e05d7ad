import { expect, it } from 'vitest';
import { exact, type Harness } from './harness.js';

/** Charging and crediting: the guarded money operations, checked through raw reads. */
export function moneyTests(h: () => Harness): void {
  it('50 parallel charges against a balance covering 20: exactly 20 charged', async () => {
    const { store, id, knex } = h();
    const t = await h().tenant();
    await h().fund(t.developer.id, t.customer.id, 2000n);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => store.chargeUsage(h().charge(t, t.customer, id('key'), 100n))),
    );
    const charged = outcomes.filter((o) => o.outcome === 'charged');
    expect(charged).toHaveLength(20);
    expect(outcomes.filter((o) => o.outcome === 'insufficient_balance')).toHaveLength(30);
    expect(await h().rawBalance(t.customer.id)).toEqual({
      available: 0n,
      totalFunded: 2000n,
      totalSpent: 2000n,
    });

    const debits = await knex('ledger_entries').where({ customer_id: t.customer.id, direction: 'debit' });
    expect(debits).toHaveLength(20);
    const after = debits.map((d) => exact(d.balance_after)).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    expect(after).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i * 100)));
    expect(await h().rawCount('usage_events', { customer_id: t.customer.id, status: 'charged' })).toBe(20);
    expect(
      await h().rawCount('usage_events', { customer_id: t.customer.id, status: 'insufficient_balance' }),
    ).toBe(30);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('20 parallel charges with the same key: charged once, the others replay it', async () => {
    const { store, id } = h();
    const t = await h().tenant();
    await h().fund(t.developer.id, t.customer.id, 1000n);
    const key = id('same');
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        store.chargeUsage(h().charge(t, t.customer, key, 7n, { webhook: true })),
      ),
    );
    const fresh = outcomes.filter((o) => o.outcome === 'charged' && !o.replay);
    expect(fresh).toHaveLength(1);
    const original = fresh[0]!.outcome === 'charged' ? fresh[0]!.event : undefined;
    for (const o of outcomes) {
      expect(o.outcome).toBe('charged');
      if (o.outcome === 'charged') expect(o.event.id).toBe(original?.id);
      if (o.outcome === 'charged' && o.replay) expect(o.deliveryId).toBeNull();
    }
    expect(original).toMatchObject({
      amount: 7n,
      balanceAfter: 993n,
      quantity: 1,
      metadata: { request: key },
    });
    expect(await h().rawBalance(t.customer.id)).toEqual({
      available: 993n,
      totalFunded: 1000n,
      totalSpent: 7n,
    });
    expect(await h().rawCount('usage_events', { idempotency_key: key })).toBe(1);
    expect(await h().rawCount('ledger_entries', { reference_id: original!.id })).toBe(1);
    expect(await h().rawCount('webhook_deliveries', { event_id: original!.id })).toBe(1);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('same key with another fingerprint: idempotency_conflict and nothing written', async () => {
    const { store, id, knex } = h();
    const t = await h().tenant();
    await h().fund(t.developer.id, t.customer.id, 100n);
    const key = id('fp');
    expect((await store.chargeUsage(h().charge(t, t.customer, key, 5n, { quantity: 1 }))).outcome).toBe(
      'charged',
    );
    const keyRow = await knex('idempotency_keys')
      .where({ developer_id: t.developer.id, idempotency_key: key })
      .first();
    const other = h().charge(t, t.customer, key, 10n, { quantity: 2, webhook: true });
    expect(await store.chargeUsage(other)).toEqual({ outcome: 'idempotency_conflict' });
    expect(await h().rawBalance(t.customer.id)).toEqual({
      available: 95n,
      totalFunded: 100n,
      totalSpent: 5n,
    });
    expect(await h().rawCount('usage_events', { id: other.usageEventId })).toBe(0);
    expect(await h().rawCount('ledger_entries', { id: other.ledgerEntryId })).toBe(0);
    expect(await h().rawCount('webhook_deliveries', { id: other.webhook!.deliveryId })).toBe(0);
    expect(
      await knex('idempotency_keys').where({ developer_id: t.developer.id, idempotency_key: key }).first(),
    ).toEqual(keyRow);
    // Keys are per developer and compared exactly (no case folding, no trailing-space padding).
    expect(
      (await store.chargeUsage(h().charge(t, t.customer, key.toUpperCase(), 1n, { quantity: 2 }))).outcome,
    ).toBe('charged');
    expect((await store.chargeUsage(h().charge(t, t.customer, `${key} `, 1n, { quantity: 2 }))).outcome).toBe(
      'charged',
    );
  });

  it('a key refused for balance is evaluated again after funding, then charged once', async () => {
    const { store, id, knex } = h();
    const t = await h().tenant();
    const key = id('retry');
    const first = await store.chargeUsage(h().charge(t, t.customer, key, 50n));
    expect(first).toMatchObject({
      outcome: 'insufficient_balance',
      event: { amount: 50n, balanceAfter: 0n },
    });
    await h().fund(t.developer.id, t.customer.id, 30n);
    const second = await store.chargeUsage(h().charge(t, t.customer, key, 50n));
    expect(second).toMatchObject({ outcome: 'insufficient_balance', event: { balanceAfter: 30n } });
    const keyRow = await knex('idempotency_keys')
      .where({ developer_id: t.developer.id, idempotency_key: key })
      .first();
    expect(keyRow).toMatchObject({
      status: 'rejected',
      usage_event_id: second.outcome === 'insufficient_balance' ? second.event.id : '',
    });
    await h().fund(t.developer.id, t.customer.id, 30n);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => store.chargeUsage(h().charge(t, t.customer, key, 50n))),
    );
    expect(results.filter((r) => r.outcome === 'charged' && !r.replay)).toHaveLength(1);
    expect(results.every((r) => r.outcome === 'charged')).toBe(true);
    expect(await h().rawBalance(t.customer.id)).toEqual({
      available: 10n,
      totalFunded: 60n,
      totalSpent: 50n,
    });
    expect(await h().rawCount('usage_events', { idempotency_key: key, developer_id: t.developer.id })).toBe(
      3,
    );
    expect(await h().rawCount('ledger_entries', { customer_id: t.customer.id, direction: 'debit' })).toBe(1);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('20 parallel credits of one payment request: credited once', async () => {
    const { store } = h();
    const t = await h().tenant();
    const request = await h().paymentRequest(t.developer.id, t.customer.id, 12_345n);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => h().credit(t.developer.id, request.id)),
    );
    expect(outcomes.filter((o) => o.outcome === 'credited')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'already_paid')).toHaveLength(19);
    const credited = outcomes.find((o) => o.outcome === 'credited');
    expect(credited).toMatchObject({
      request: { status: 'paid' },
      balance: { available: 12_345n, totalFunded: 12_345n },
    });
    expect(await h().rawBalance(t.customer.id)).toEqual({
      available: 12_345n,
      totalFunded: 12_345n,
      totalSpent: 0n,
    });
    expect(await h().rawCount('ledger_entries', { reference_id: request.id })).toBe(1);
    expect((await store.getPaymentRequest(t.developer.id, request.id))?.paidAt).toBeInstanceOf(Date);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('50,000,000,000 CKB funds and charges exactly to the shannon', async () => {
    const { store, id, knex } = h();
    const t = await h().tenant();
    const big = 5_000_000_000_000_000_000n;
    const request = await h().paymentRequest(t.developer.id, t.customer.id, big);
    expect(exact((await knex('payment_requests').where({ id: request.id }).first()).amount)).toBe(big);
    const credit = await h().credit(t.developer.id, request.id);
    expect(credit).toMatchObject({ outcome: 'credited', balance: { available: big } });

    const one = await store.chargeUsage(h().charge(t, t.customer, id('k'), 1n));
    expect(one).toMatchObject({ outcome: 'charged', event: { balanceAfter: big - 1n } });
    const odd = 1_234_567_890_123_456_789n;
    const two = await store.chargeUsage(h().charge(t, t.customer, id('k'), odd));
    expect(two).toMatchObject({ outcome: 'charged', event: { amount: odd, balanceAfter: big - 1n - odd } });
    const tooMuch = await store.chargeUsage(h().charge(t, t.customer, id('k'), big));
    expect(tooMuch).toMatchObject({
      outcome: 'insufficient_balance',
      event: { amount: big, balanceAfter: big - 1n - odd },
    });
    expect(await h().rawBalance(t.customer.id)).toEqual({
      available: big - 1n - odd,
      totalFunded: big,
      totalSpent: odd + 1n,
    });
    const rest = await store.chargeUsage(h().charge(t, t.customer, id('k'), big - 1n - odd));
    expect(rest).toMatchObject({ outcome: 'charged', event: { balanceAfter: 0n } });
    expect(await h().rawBalance(t.customer.id)).toEqual({ available: 0n, totalFunded: big, totalSpent: big });

    const ledger = await knex('ledger_entries').where({ customer_id: t.customer.id }).orderBy('id');
    expect(ledger.map((l) => [l.direction, exact(l.amount), exact(l.balance_after)])).toEqual([
      ['credit', big, big],
      ['debit', 1n, big - 1n],
      ['debit', odd, big - 1n - odd],
      ['debit', big - 1n - odd, 0n],
    ]);
    const events = await knex('usage_events').where({
      customer_id: t.customer.id,
      status: 'insufficient_balance',
    });
    expect(events.map((e) => exact(e.amount))).toEqual([big]);
    const summary = await store.dashboardSummary(t.developer.id, new Date());
    expect(summary.balances).toEqual([{ asset: 'CKB', available: 0n, totalFunded: big, totalSpent: big }]);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('a credit that would overflow BIGINT is refused and rolled back', async () => {
    const { store } = h();
    const t = await h().tenant();
    const big = 5_000_000_000_000_000_000n;
    await h().fund(t.developer.id, t.customer.id, big);
    const second = await h().paymentRequest(t.developer.id, t.customer.id, big);
    await expect(h().credit(t.developer.id, second.id)).rejects.toMatchObject({ code: 'conflict' });
    expect((await store.getPaymentRequest(t.developer.id, second.id))?.status).toBe('pending');
    expect(await h().rawBalance(t.customer.id)).toEqual({ available: big, totalFunded: big, totalSpent: 0n });
    expect(await h().rawCount('ledger_entries', { reference_id: second.id })).toBe(0);
    // Two such balances still sum exactly in the dashboard (no 64-bit overflow in SUM).
    const c2 = await h().customer(t.developer.id);
    await h().fund(t.developer.id, c2.id, big);
    expect((await store.dashboardSummary(t.developer.id, new Date())).balances[0]?.available).toBe(2n * big);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('checkInvariants reports a corrupted balance', async () => {
    const { store, knex, id } = h();
    const t = await h().tenant();
    await h().fund(t.developer.id, t.customer.id, 100n);
    await store.chargeUsage(h().charge(t, t.customer, id('k'), 40n));
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
    await knex('balances').where({ customer_id: t.customer.id }).update({ available: 61 });
    const kinds = (await store.checkInvariants(t.developer.id)).map((v) => v.kind).sort();
    expect(kinds).toEqual(['ledger_mismatch', 'totals_mismatch']);
    await knex('ledger_entries').where({ customer_id: t.customer.id, direction: 'debit' }).del();
    const after = await store.checkInvariants(t.developer.id);
    expect(after.map((v) => v.kind).sort()).toEqual([
      'charge_without_ledger',
      'ledger_mismatch',
      'totals_mismatch',
    ]);
    expect(after.every((v) => v.customerId === t.customer.id && v.asset === 'CKB')).toBe(true);
    await knex('usage_events').where({ customer_id: t.customer.id }).del();
    await knex('balances').where({ customer_id: t.customer.id }).update({ available: 100, total_spent: 0 });
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });
}
