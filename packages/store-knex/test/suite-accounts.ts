import { MeterError } from '@meter/core';
import { expect, it } from 'vitest';
import type { Harness } from './harness.js';

const conflict = expect.objectContaining({ code: 'conflict' });

/** Developers, API keys, services, pricing rules, customers and tenant isolation. */
export function accountTests(h: () => Harness): void {
  it('developers: email unique case-insensitively, found for login', async () => {
    const { store, id } = h();
    const email = `${id('mail')}@Example.com`;
    const dev = await store.createDeveloper({
      id: id('dev'),
      email,
      name: 'A',
      passwordHash: 'h1',
      createdAt: new Date(),
    });
    expect(dev.email).toBe(email.toLowerCase());
    await expect(
      store.createDeveloper({
        id: id('dev'),
        email: email.toUpperCase(),
        name: 'B',
        passwordHash: 'h2',
        createdAt: new Date(),
      }),
    ).rejects.toThrow(MeterError);
    await expect(
      store.createDeveloper({ id: id('dev'), email, name: 'B', passwordHash: 'h2', createdAt: new Date() }),
    ).rejects.toEqual(conflict);
    const login = await store.findDeveloperForLogin(email.toUpperCase());
    expect(login).toMatchObject({ id: dev.id, passwordHash: 'h1' });
    expect((await store.getDeveloper(dev.id))?.createdAt.getTime()).toBe(dev.createdAt.getTime());
    expect(await store.getDeveloper('dev_missing')).toBeNull();
  });

  it('api keys: found by hash while active, last use recorded, revoked once', async () => {
    const { store, id, knex } = h();
    const { developer } = await h().tenant();
    const other = await h().tenant();
    const keyHash = id('hash');
    const key = await store.createApiKey({
      id: id('key'),
      developerId: developer.id,
      name: 'ci',
      keyPrefix: 'mk_live_ab',
      keyHash,
      createdAt: new Date(),
    });
    const now = new Date(Date.now() + 1000);
    expect((await store.findActiveApiKeyByHash(keyHash, now))?.lastUsedAt).toEqual(now);
    expect(Number((await knex('api_keys').where({ id: key.id }).first()).last_used_at)).toBe(now.getTime());
    expect(await store.listApiKeys(developer.id)).toHaveLength(1);
    expect(await store.revokeApiKey(other.developer.id, key.id, now)).toBe(false);
    expect(await store.revokeApiKey(developer.id, key.id, now)).toBe(true);
    expect(await store.revokeApiKey(developer.id, key.id, now)).toBe(false);
    expect(await store.findActiveApiKeyByHash(keyHash, now)).toBeNull();
  });

  it('services: slug unique per developer; delete removes its pricing rules', async () => {
    const { store, id, knex } = h();
    const t = await h().tenant();
    const other = await h().tenant();
    expect(other.service.slug).toBe(t.service.slug);
    const base = {
      developerId: t.developer.id,
      name: 'S',
      description: 'd',
      webhookUrl: null,
      webhookSecret: 'x'.repeat(20),
    };
    await expect(
      store.createService({
        ...base,
        id: id('svc'),
        slug: 'api',
        defaultAsset: 'CKB',
        createdAt: new Date(),
      }),
    ).rejects.toEqual(conflict);
    const second = await store.createService({
      ...base,
      id: id('svc'),
      slug: 'second',
      defaultAsset: 'CKB',
      createdAt: new Date(),
    });
    await expect(store.updateService(t.developer.id, second.id, { slug: 'api' }, new Date())).rejects.toEqual(
      conflict,
    );
    const later = new Date(Date.now() + 5000);
    const updated = await store.updateService(
      t.developer.id,
      second.id,
      { name: 'Renamed', webhookUrl: 'https://x.test' },
      later,
    );
    expect(updated).toMatchObject({
      name: 'Renamed',
      webhookUrl: 'https://x.test',
      description: 'd',
      updatedAt: later,
    });
    expect((await store.getServiceBySlug(t.developer.id, 'second'))?.id).toBe(second.id);
    expect((await store.listServices(t.developer.id, { limit: 10 })).items.map((s) => s.id)).toEqual([
      second.id,
      t.service.id,
    ]);

    expect(await store.deleteService(t.developer.id, t.service.id)).toBe(true);
    expect(await store.deleteService(t.developer.id, t.service.id)).toBe(false);
    expect(await knex('pricing_rules').where({ service_id: t.service.id })).toHaveLength(0);
    expect(await store.findActivePricingRule(t.service.id, 'tokens', 'CKB')).toBeNull();
  });

  it('pricing rules: one active rule per (service, metric, asset), even for racing writers', async () => {
    const { store, id } = h();
    const t = await h().tenant();
    const rule = (active: boolean) => ({
      id: id('prc'),
      developerId: t.developer.id,
      serviceId: t.service.id,
      name: 'r',
      metricKey: 'calls',
      unitName: 'call',
      pricingModel: 'fixed_per_request' as const,
      price: '0.5',
      asset: 'CKB' as const,
      active,
      createdAt: new Date(),
    });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => store.createPricingRule(rule(true))),
    );
    const created = results.filter((r) => r.status === 'fulfilled');
    expect(created).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toEqual(conflict);
    const active = (await store.findActivePricingRule(t.service.id, 'calls', 'CKB'))!;
    expect(active.active).toBe(true);

    const inactive = await store.createPricingRule(rule(false));
    await store.createPricingRule(rule(false));
    await expect(
      store.updatePricingRule(t.developer.id, inactive.id, { active: true }, new Date()),
    ).rejects.toEqual(conflict);
    expect(
      await store.updatePricingRule(t.developer.id, active.id, { active: false, price: '0.75' }, new Date()),
    ).toMatchObject({
      active: false,
      price: '0.75',
    });
    expect(
      await store.updatePricingRule(t.developer.id, inactive.id, { active: true }, new Date()),
    ).toMatchObject({ active: true });
    expect((await store.findActivePricingRule(t.service.id, 'calls', 'CKB'))?.id).toBe(inactive.id);
    expect(await store.listPricingRules(t.developer.id, t.service.id)).toHaveLength(4);
    expect(await store.deletePricingRule(t.developer.id, inactive.id)).toBe(true);
    expect(await store.findActivePricingRule(t.service.id, 'calls', 'CKB')).toBeNull();
  });

  it('customers: externalId unique per developer, zero balance rows, guarded delete', async () => {
    const { store, id, knex } = h();
    const t = await h().tenant();
    await expect(h().customer(t.developer.id, t.customer.externalId)).rejects.toEqual(conflict);
    const other = await h().tenant();
    await h().customer(other.developer.id, t.customer.externalId);

    expect(await h().rawBalance(t.customer.id)).toEqual({ available: 0n, totalFunded: 0n, totalSpent: 0n });
    expect(await store.listBalances(t.developer.id, t.customer.id)).toEqual([]);

    const second = await h().customer(t.developer.id, 'second');
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
    expect((await store.getCustomerByExternalId(t.developer.id, 'second'))?.id).toBe(second.id);
    expect(await store.getCustomerByExternalId(t.developer.id, 'SECOND')).toBeNull();

    await h().fund(t.developer.id, second.id, 10n);
    expect(await store.deleteCustomer(t.developer.id, second.id)).toBe('has_balance');
    await store.chargeUsage(h().charge(t, second, id('k'), 10n));
    expect(await store.listBalances(t.developer.id, second.id)).toMatchObject([
      { available: 0n, totalFunded: 10n, totalSpent: 10n },
    ]);
    expect(await store.deleteCustomer(t.developer.id, second.id)).toBe('deleted');
    expect(await store.deleteCustomer(t.developer.id, second.id)).toBe('not_found');
    expect(await knex('balances').where({ customer_id: second.id })).toHaveLength(0);
    expect(await h().rawCount('ledger_entries', { customer_id: second.id })).toBe(2);
    expect(await store.checkInvariants(t.developer.id)).toEqual([]);
  });

  it('a credit racing a customer delete is never lost', async () => {
    const { store } = h();
    for (let round = 0; round < 5; round++) {
      const t = await h().tenant();
      const request = await h().paymentRequest(t.developer.id, t.customer.id, 500n);
      const [deleted, credited] = await Promise.allSettled([
        store.deleteCustomer(t.developer.id, t.customer.id),
        h().credit(t.developer.id, request.id),
      ]);
      const wasDeleted = deleted.status === 'fulfilled' && deleted.value === 'deleted';
      const wasCredited = credited.status === 'fulfilled' && credited.value.outcome === 'credited';
      expect(wasDeleted && wasCredited).toBe(false);
      expect(wasDeleted || wasCredited).toBe(true);
      if (credited.status === 'rejected') expect(credited.reason).toMatchObject({ code: 'conflict' });
      const stored = await store.getPaymentRequest(t.developer.id, request.id);
      expect(stored?.status).toBe(wasCredited ? 'paid' : 'pending');
      expect(await h().rawBalance(t.customer.id)).toEqual(
        wasCredited ? { available: 500n, totalFunded: 500n, totalSpent: 0n } : null,
      );
      expect(await store.checkInvariants(t.developer.id)).toEqual([]);
    }
  });

  it("tenant isolation: another developer's ids behave as missing", async () => {
    const { store, id } = h();
    const a = await h().tenant();
    const b = await h().tenant();
    const request = await h().paymentRequest(a.developer.id, a.customer.id, 100n);
    const dev = b.developer.id;
    expect(await store.getService(dev, a.service.id)).toBeNull();
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
    expect(await h().credit(dev, request.id)).toEqual({ outcome: 'not_found' });
    expect((await store.getPaymentRequest(a.developer.id, request.id))?.status).toBe('pending');
    await h().fund(a.developer.id, a.customer.id, 100n);
    expect(await store.listBalances(dev, a.customer.id)).toEqual([]);
    expect((await store.listPaymentRequests(dev, { now: new Date() }, { limit: 10 })).items).toEqual([]);
    expect((await store.listLedgerEntries(dev, { customerId: a.customer.id }, { limit: 10 })).items).toEqual(
      [],
    );
    const charged = await store.chargeUsage(h().charge(a, a.customer, id('k'), 1n, { webhook: true }));
    expect(charged.outcome).toBe('charged');
    expect((await store.listUsageEvents(dev, {}, { limit: 10 })).items).toEqual([]);
    const deliveryId = charged.outcome === 'charged' ? charged.deliveryId! : '';
    expect(await store.getWebhookDelivery(dev, deliveryId)).toBeNull();
    expect((await store.listWebhookDeliveries(dev, {}, { limit: 10 })).items).toEqual([]);
    expect(await store.listApiKeys(dev)).toEqual([]);
    expect((await store.dashboardSummary(dev, new Date())).customers).toBe(1);
  });
}
