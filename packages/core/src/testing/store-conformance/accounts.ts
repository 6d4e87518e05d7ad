import { expect, it } from 'vitest';
import { MeterError } from '../../domain/errors.js';
import type { GetFixtures } from './fixtures.js';

export const conflict = expect.objectContaining({ code: 'conflict' });

/** Developers, API keys, services and pricing rules. */
export function accountTests(f: GetFixtures): void {
  it('developers: email unique case-insensitively, found for login', async () => {
    const { store, id } = f();
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
    expect(await store.findDeveloperForLogin('missing@example.com')).toBeNull();
  });

  it('api keys: found by hash while active, last use recorded, revoked once', async () => {
    const { store, raw, id } = f();
    const { developer } = await f().tenant();
    const other = await f().tenant();
    const keyHash = id('hash');
    const key = await store.createApiKey({
      id: id('key'),
      developerId: developer.id,
      name: 'ci',
      keyPrefix: 'mk_live_ab',
      keyHash,
      createdAt: new Date(),
    });
    expect(await raw.apiKey(key.id)).toEqual({ lastUsedAt: null, revokedAt: null });
    const now = new Date(Date.now() + 1000);
    expect((await store.findActiveApiKeyByHash(keyHash, now))?.lastUsedAt).toEqual(now);
    expect((await raw.apiKey(key.id))?.lastUsedAt).toEqual(now);
    expect(await store.listApiKeys(developer.id)).toMatchObject([{ id: key.id, keyPrefix: 'mk_live_ab' }]);
    expect(await store.revokeApiKey(other.developer.id, key.id, now)).toBe(false);
    expect((await raw.apiKey(key.id))?.revokedAt).toBeNull();
    expect(await store.revokeApiKey(developer.id, key.id, now)).toBe(true);
    expect(await store.revokeApiKey(developer.id, key.id, now)).toBe(false);
    expect((await raw.apiKey(key.id))?.revokedAt).toEqual(now);
    expect(await store.findActiveApiKeyByHash(keyHash, now)).toBeNull();
    expect(await store.findActiveApiKeyByHash(id('unknown'), now)).toBeNull();
  });

  it('services: slug unique per developer; delete removes its pricing rules', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
    const other = await f().tenant();
    expect(other.service.slug).toBe(t.service.slug);
    const base = {
      developerId: t.developer.id,
      name: 'S',
      description: 'd',
      webhookUrl: null,
      webhookSecret: 'x'.repeat(20),
      webhookEvents: ['usage.charged' as const],
      defaultAsset: 'CKB' as const,
    };
    await expect(
      store.createService({ ...base, id: id('svc'), slug: 'api', createdAt: new Date() }),
    ).rejects.toEqual(conflict);
    const second = await store.createService({
      ...base,
      id: id('svc'),
      slug: 'second',
      createdAt: new Date(),
    });
    await expect(store.updateService(t.developer.id, second.id, { slug: 'api' }, new Date())).rejects.toEqual(
      conflict,
    );
    const later = new Date(Date.now() + 5000);
    const updated = await store.updateService(
      t.developer.id,
      second.id,
      { name: 'Renamed', webhookUrl: 'https://x.test', webhookEvents: ['usage.charged', 'balance.funded'] },
      later,
    );
    expect(updated).toMatchObject({
      name: 'Renamed',
      webhookUrl: 'https://x.test',
      webhookEvents: ['usage.charged', 'balance.funded'],
      description: 'd',
      updatedAt: later,
    });
    expect(await store.updateService(t.developer.id, id('svc'), { name: 'x' }, later)).toBeNull();
    expect((await store.getServiceBySlug(t.developer.id, 'second'))?.id).toBe(second.id);
    expect(await store.getService(t.developer.id, second.id)).toEqual(updated);
    expect((await store.listServices(t.developer.id, { limit: 10 })).items.map((s) => s.id)).toEqual([
      second.id,
      t.service.id,
    ]);

    expect(await raw.pricingRuleCount(t.service.id)).toBe(1);
    expect(await store.deleteService(t.developer.id, t.service.id)).toBe(true);
    expect(await store.deleteService(t.developer.id, t.service.id)).toBe(false);
    expect(await raw.pricingRuleCount(t.service.id)).toBe(0);
    expect(await store.findActivePricingRule(t.service.id, 'tokens', 'CKB')).toBeNull();
  });

  it('pricing rules: one active rule per (service, metric, asset), even for racing writers', async () => {
    const { store, raw, id } = f();
    const t = await f().tenant();
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
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toEqual(conflict);
    const active = (await store.findActivePricingRule(t.service.id, 'calls', 'CKB'))!;
    expect(active.active).toBe(true);
    expect(await store.getPricingRule(t.developer.id, active.id)).toEqual(active);

    const inactive = await store.createPricingRule(rule(false));
    await store.createPricingRule(rule(false));
    await expect(
      store.updatePricingRule(t.developer.id, inactive.id, { active: true }, new Date()),
    ).rejects.toEqual(conflict);
    expect(
      await store.updatePricingRule(t.developer.id, active.id, { active: false, price: '0.75' }, new Date()),
    ).toMatchObject({ active: false, price: '0.75' });
    expect(
      await store.updatePricingRule(t.developer.id, inactive.id, { active: true }, new Date()),
    ).toMatchObject({ active: true });
    expect((await store.findActivePricingRule(t.service.id, 'calls', 'CKB'))?.id).toBe(inactive.id);
    expect(await store.listPricingRules(t.developer.id, t.service.id)).toHaveLength(4);
    expect(await raw.pricingRuleCount(t.service.id)).toBe(4);
    expect(await store.deletePricingRule(t.developer.id, inactive.id)).toBe(true);
    expect(await store.deletePricingRule(t.developer.id, inactive.id)).toBe(false);
    expect(await raw.pricingRuleCount(t.service.id)).toBe(3);
    expect(await store.findActivePricingRule(t.service.id, 'calls', 'CKB')).toBeNull();
  });
}
