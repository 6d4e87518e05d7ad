import { expect, it } from 'vitest';
import { conflict } from './accounts.js';
import { type GetFixtures, ZERO_BALANCE } from './fixtures.js';

/** Customers, their guarded delete, and tenant isolation across every kind of row. */
export function customerTests(f: GetFixtures): void {
  it('customers: externalId unique per developer, no balances until funded, guarded delete', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    await expect(f().customer(t.developer.id, t.customer.externalId)).rejects.toEqual(conflict);
    const other = await f().tenant();
    await f().customer(other.developer.id, t.customer.externalId);

    expect(await f().balance(t.customer.id)).toEqual(ZERO_BALANCE);
    expect(await store.listBalances(t.developer.id, t.customer.id)).toEqual([]);

    const second = await f().customer(t.developer.id, 'second');
    await expect(
      store.updateCustomer(t.developer.id, second.id, { externalId: t.customer.externalId }, new Date()),
    ).rejects.toEqual(conflict);
    const updated = await store.updateCustomer(
      t.developer.id,
      second.id,
      { name: 'Bo', metadata: { tier: 'gold', n: 1 } },
      new Date(),
    );
    expect(updated).toMatchObject({
      name: 'Bo',
      email: null,
      metadata: { tier: 'gold', n: 1 },
      externalId: 'second',
    });
    expect(await store.getCustomer(t.developer.id, second.id)).toEqual(updated);
    expect((await store.getCustomerByExternalId(t.developer.id, 'second'))?.id).toBe(second.id);
    expect(await store.getCustomerByExternalId(t.developer.id, 'SECOND')).toBeNull();

    await f().fund(t.developer.id, second.id, 10n);
    expect(await store.deleteCustomer(t.developer.id, second.id)).toBe('has_balance');
    await store.chargeUsage(f().charge(t, second, id('k'), 10n));
    expect(await store.listBalances(t.developer.id, second.id)).toMatchObject([
      { customerId: second.id, asset: 'CKB', available: 0n, totalFunded: 10n, totalSpent: 10n },
    ]);
    expect(await store.deleteCustomer(t.developer.id, second.id)).toBe('deleted');
    expect(await store.deleteCustomer(t.developer.id, second.id)).toBe('not_found');
    expect(await store.getCustomer(t.developer.id, second.id)).toBeNull();
    expect(await raw.balance(second.id, 'CKB')).toBeNull();
    // The money history of a deleted customer stays.
    expect((await raw.ledgerEntries(second.id)).map((e) => e.direction)).toEqual(['credit', 'debit']);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('a credit racing a customer delete is never lost', async () => {
    const { store, raw } = f();
    for (let round = 0; round < 5; round++) {
      const t = await f().tenant();
      const request = await f().paymentRequest(t.developer.id, t.customer.id, 500n);
      const [deleted, credited] = await Promise.allSettled([
        store.deleteCustomer(t.developer.id, t.customer.id),
        f().credit(t.developer.id, request.id),
      ]);
      const wasDeleted = deleted.status === 'fulfilled' && deleted.value === 'deleted';
      const wasCredited = credited.status === 'fulfilled' && credited.value.outcome === 'credited';
      expect(wasDeleted && wasCredited).toBe(false);
      expect(wasDeleted || wasCredited).toBe(true);
      if (credited.status === 'rejected') expect(credited.reason).toMatchObject({ code: 'conflict' });
      expect((await raw.paymentRequest(request.id))?.status).toBe(wasCredited ? 'paid' : 'pending');
      expect(await raw.balance(t.customer.id, 'CKB')).toEqual(
        wasCredited ? { available: 500n, totalFunded: 500n, totalSpent: 0n } : null,
      );
      expect(await store.checkInvariants(t.developer.id)).toEqual([]);
    }
  });

  it("tenant isolation: another developer's ids behave as missing", async () => {
    const { store, raw, id } = f();
    const a = await f().tenant();
    const b = await f().tenant();
    const request = await f().paymentRequest(a.developer.id, a.customer.id, 100n);
    const dev = b.developer.id;
    expect(await store.getService(dev, a.service.id)).toBeNull();
    expect(await store.getServiceBySlug(dev, 'missing')).toBeNull();
    expect(await store.updateService(dev, a.service.id, { name: 'x' }, new Date())).toBeNull();
    expect(await store.deleteService(dev, a.service.id)).toBe(false);
    expect(await store.getPricingRule(dev, a.rule.id)).toBeNull();
    expect(await store.updatePricingRule(dev, a.rule.id, { name: 'x' }, new Date())).toBeNull();
    expect(await store.deletePricingRule(dev, a.rule.id)).toBe(false);
    expect(await store.listPricingRules(dev, a.service.id)).toEqual([]);
    expect(await store.getCustomer(dev, a.customer.id)).toBeNull();
    expect(await store.getCustomerByExternalId(dev, a.customer.externalId)).toBeNull();
    expect(await store.updateCustomer(dev, a.customer.id, { name: 'x' }, new Date())).toBeNull();
    expect(await store.deleteCustomer(dev, a.customer.id)).toBe('not_found');
    expect(await store.getPaymentRequest(dev, request.id)).toBeNull();
    expect(await store.closePaymentRequest(dev, request.id, 'cancelled')).toBeNull();
    expect(await f().credit(dev, request.id)).toEqual({ outcome: 'not_found' });
    expect(await raw.paymentRequest(request.id)).toEqual({ status: 'pending', amount: 100n });
    await f().fund(a.developer.id, a.customer.id, 100n);
    expect(await store.listBalances(dev, a.customer.id)).toEqual([]);
    expect((await store.listPaymentRequests(dev, { now: new Date() }, { limit: 10 })).items).toEqual([]);
    expect((await store.listLedgerEntries(dev, { customerId: a.customer.id }, { limit: 10 })).items).toEqual(
      [],
    );
    const key = id('k');
    const charged = await store.chargeUsage(f().charge(a, a.customer, key, 1n, { webhook: true }));
    expect(charged.outcome).toBe('charged');
    expect((await store.listUsageEvents(dev, {}, { limit: 10 })).items).toEqual([]);
    expect(await store.findChargedUsage(dev, key)).toBeNull();
    const deliveryId = charged.outcome === 'charged' ? charged.deliveryId! : '';
    expect(await store.getWebhookDelivery(dev, deliveryId)).toBeNull();
    expect((await store.listWebhookDeliveries(dev, {}, { limit: 10 })).items).toEqual([]);
    expect(await store.listApiKeys(dev)).toEqual([]);
    const summary = await store.dashboardSummary(dev, new Date());
    // b's own customer may appear with zero sums; a's money must not.
    expect(summary.balances.filter((x) => x.totalFunded !== 0n || x.totalSpent !== 0n)).toEqual([]);
    expect(summary).toMatchObject({
      customers: 1,
      services: 1,
      usage: { charged: 0, insufficientBalance: 0 },
      paymentRequests: { pending: 0, paid: 0, expired: 0 },
      webhookDeliveries: { pending: 0, sent: 0, failed: 0 },
    });
    expect(await store.checkInvariants(dev)).toEqual([]);
    // The other developer's key is free for this one: keys are scoped per developer.
    await f().fund(dev, b.customer.id, 5n);
    expect(await store.chargeUsage(f().charge(b, b.customer, key, 1n))).toMatchObject({
      outcome: 'charged',
      replay: false,
    });
    expect(await raw.balance(a.customer.id, 'CKB')).toEqual({
      available: 99n,
      totalFunded: 100n,
      totalSpent: 1n,
    });
  });
}
