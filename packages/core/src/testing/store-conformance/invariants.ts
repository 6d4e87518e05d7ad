import { expect, it } from 'vitest';
import type { GetFixtures } from './fixtures.js';

/**
 * checkInvariants finds what it is meant to find. It corrupts its own developer's rows
 * through the raw reader, so it runs last and every other test checks one developer only.
 */
export function invariantTests(f: GetFixtures): void {
  it('checkInvariants reports a corrupted balance and a charge without its debit', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    const c2 = await f().customer(t.developer.id);
    await f().fund(t.developer.id, t.customer.id, 100n);
    await f().fund(t.developer.id, c2.id, 100n);
    const charge = f().charge(t, t.customer, id('k'), 40n);
    await store.chargeUsage(charge);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);

    await raw.corruptBalance(t.customer.id, 'CKB', 61n);
    const kinds = (await store.checkInvariants(t.developer.id)).map((v) => v.kind).sort();
    expect(kinds).toEqual(['ledger_mismatch', 'totals_mismatch']);
    // Without a developer every developer is checked.
    const everyone = await store.checkInvariants();
    expect(
      everyone
        .filter((v) => v.customerId === t.customer.id)
        .map((v) => v.kind)
        .sort(),
    ).toEqual(kinds);

    await raw.corruptBalance(t.customer.id, 'CKB', 60n);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
    await raw.deleteLedgerEntry(charge.ledgerEntryId);
    const after = await store.checkInvariants(t.developer.id);
    expect(after.map((v) => v.kind).sort()).toEqual(['charge_without_ledger', 'ledger_mismatch']);
    expect(after.every((v) => v.customerId === t.customer.id && v.asset === 'CKB')).toBe(true);
    expect(after.every((v) => v.detail.length > 0)).toBe(true);
    // The other developer's check does not see this one's rows.
    const other = await f().tenant();
    expect(await store.checkInvariants(other.developer.id)).toEqual([]);
  });
}
