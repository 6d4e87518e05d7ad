import { expect, it } from 'vitest';
import { type GetFixtures, ZERO_BALANCE } from './fixtures.js';

const ascending = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);

/** chargeUsage under races and key reuse, checked through raw reads. */
export function chargeTests(f: GetFixtures): void {
  it('50 parallel charges against a balance covering 20: exactly 20 charged', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    await f().fund(t.developer.id, t.customer.id, 2000n);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => store.chargeUsage(f().charge(t, t.customer, id('key'), 100n))),
    );
    expect(outcomes.filter((o) => o.outcome === 'charged')).toHaveLength(20);
    expect(outcomes.filter((o) => o.outcome === 'insufficient_balance')).toHaveLength(30);
    expect(await f().balance(t.customer.id)).toEqual({
      available: 0n,
      totalFunded: 2000n,
      totalSpent: 2000n,
    });

    const debits = (await raw.ledgerEntries(t.customer.id)).filter((e) => e.direction === 'debit');
    expect(debits).toHaveLength(20);
    // Every debit saw the balance the one before it left: no two charges read the same balance.
    expect(debits.map((d) => d.balanceAfter).sort(ascending)).toEqual(
      Array.from({ length: 20 }, (_, i) => BigInt(i * 100)),
    );
    const events = await raw.usageEvents(t.developer.id);
    expect(events.filter((e) => e.status === 'charged')).toHaveLength(20);
    expect(events.filter((e) => e.status === 'insufficient_balance')).toHaveLength(30);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('20 parallel charges with the same key: charged once, the others replay it', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    await f().fund(t.developer.id, t.customer.id, 1000n);
    const key = id('same');
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        store.chargeUsage(f().charge(t, t.customer, key, 7n, { webhook: true })),
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
    expect(await f().balance(t.customer.id)).toEqual({ available: 993n, totalFunded: 1000n, totalSpent: 7n });
    expect((await raw.usageEvents(t.developer.id)).filter((e) => e.idempotencyKey === key)).toHaveLength(1);
    const ledger = await raw.ledgerEntries(t.customer.id);
    expect(ledger.filter((e) => e.referenceId === original!.id)).toHaveLength(1);
    const deliveries = await raw.webhookDeliveries(t.developer.id);
    expect(deliveries.map((d) => d.eventId)).toEqual([original!.id]);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('same key with another fingerprint: idempotency_conflict and nothing written', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    await f().fund(t.developer.id, t.customer.id, 100n);
    const key = id('fp');
    const first = f().charge(t, t.customer, key, 5n, { quantity: 1 });
    const charged = await store.chargeUsage(first);
    expect(charged.outcome).toBe('charged');
    const other = f().charge(t, t.customer, key, 10n, { quantity: 2, webhook: true });
    expect(await store.chargeUsage(other)).toEqual({ outcome: 'idempotency_conflict' });
    expect(await f().balance(t.customer.id)).toEqual({ available: 95n, totalFunded: 100n, totalSpent: 5n });
    expect((await raw.usageEvents(t.developer.id)).map((e) => e.id)).toEqual([first.usageEventId]);
    expect((await raw.ledgerEntries(t.customer.id)).map((e) => e.id)).not.toContain(other.ledgerEntryId);
    expect(await raw.webhookDeliveries(t.developer.id)).toEqual([]);
    // The key still belongs to the first charge.
    expect((await store.findChargedUsage(t.developer.id, key))?.fingerprint).toBe(first.fingerprint);
    expect(await store.chargeUsage(f().charge(t, t.customer, key, 5n))).toMatchObject({
      outcome: 'charged',
      replay: true,
      event: { id: first.usageEventId },
    });
    // Keys are compared exactly: no case folding, no trailing-space padding.
    expect(
      (await store.chargeUsage(f().charge(t, t.customer, key.toUpperCase(), 1n, { quantity: 2 }))).outcome,
    ).toBe('charged');
    expect((await store.chargeUsage(f().charge(t, t.customer, `${key} `, 1n, { quantity: 2 }))).outcome).toBe(
      'charged',
    );
    expect(await f().balance(t.customer.id)).toEqual({ available: 93n, totalFunded: 100n, totalSpent: 7n });
  });

  it('a key refused for balance is evaluated again after funding, then charged once', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    const key = id('retry');
    const first = await store.chargeUsage(f().charge(t, t.customer, key, 50n));
    expect(first).toMatchObject({
      outcome: 'insufficient_balance',
      event: { amount: 50n, balanceAfter: 0n },
    });
    await f().fund(t.developer.id, t.customer.id, 30n);
    const second = await store.chargeUsage(f().charge(t, t.customer, key, 50n));
    expect(second).toMatchObject({ outcome: 'insufficient_balance', event: { balanceAfter: 30n } });
    expect(await store.findChargedUsage(t.developer.id, key)).toBeNull();
    await f().fund(t.developer.id, t.customer.id, 30n);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => store.chargeUsage(f().charge(t, t.customer, key, 50n))),
    );
    expect(results.filter((r) => r.outcome === 'charged' && !r.replay)).toHaveLength(1);
    expect(results.every((r) => r.outcome === 'charged')).toBe(true);
    expect(await f().balance(t.customer.id)).toEqual({ available: 10n, totalFunded: 60n, totalSpent: 50n });
    const events = (await raw.usageEvents(t.developer.id)).filter((e) => e.idempotencyKey === key);
    expect(events.map((e) => e.status)).toEqual(['insufficient_balance', 'insufficient_balance', 'charged']);
    const debits = (await raw.ledgerEntries(t.customer.id)).filter((e) => e.direction === 'debit');
    expect(debits).toMatchObject([{ amount: 50n, balanceAfter: 10n, referenceId: events[2]!.id }]);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('a customer never funded is refused, and nothing is debited', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    const refused = await store.chargeUsage(f().charge(t, t.customer, id('k'), 1n, { webhook: true }));
    expect(refused).toMatchObject({
      outcome: 'insufficient_balance',
      event: { amount: 1n, balanceAfter: 0n },
    });
    expect(await raw.ledgerEntries(t.customer.id)).toEqual([]);
    expect(await raw.webhookDeliveries(t.developer.id)).toEqual([]);
    expect(await f().balance(t.customer.id)).toEqual(ZERO_BALANCE);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });
}
