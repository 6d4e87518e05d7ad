import { expect, it } from 'vitest';
import type { GetFixtures } from './fixtures.js';

/** findChargedUsage: answers a replay from the stored charge, and only for a charged key. */
export function chargedUsageTests(f: GetFixtures): void {
  it('findChargedUsage returns the charged event and fingerprint of a key', async () => {
    const { store, id } = f();
    const t = await f().tenant();
    await f().fund(t.developer.id, t.customer.id, 1_000n);
    const key = `Key-${id('k')}`;
    const input = f().charge(t, t.customer, key, 25n, { quantity: 2.5, webhook: true });
    const outcome = await store.chargeUsage(input);
    expect(outcome.outcome).toBe('charged');
    const found = await store.findChargedUsage(t.developer.id, key);
    expect(found).toEqual({
      fingerprint: input.fingerprint,
      event: outcome.outcome === 'charged' ? outcome.event : undefined,
    });
    expect(found?.event).toMatchObject({
      id: input.usageEventId,
      status: 'charged',
      amount: 25n,
      balanceAfter: 975n,
      quantity: 2.5,
      idempotencyKey: key,
      serviceSlug: 'api',
      customerExternalId: t.customer.externalId,
      metadata: { request: key },
      createdAt: input.now,
    });
    // Exact key comparison: no case folding, no trailing-space padding.
    expect(await store.findChargedUsage(t.developer.id, key.toLowerCase())).toBeNull();
    expect(await store.findChargedUsage(t.developer.id, `${key} `)).toBeNull();
    expect(await store.findChargedUsage(t.developer.id, id('unknown'))).toBeNull();
  });

  it('findChargedUsage is null for a refused key until the key is charged', async () => {
    const { store, id } = f();
    const t = await f().tenant();
    const key = id('k');
    expect((await store.chargeUsage(f().charge(t, t.customer, key, 40n))).outcome).toBe(
      'insufficient_balance',
    );
    expect(await store.findChargedUsage(t.developer.id, key)).toBeNull();
    await f().fund(t.developer.id, t.customer.id, 40n);
    const charged = f().charge(t, t.customer, key, 40n);
    expect((await store.chargeUsage(charged)).outcome).toBe('charged');
    expect(await store.findChargedUsage(t.developer.id, key)).toMatchObject({
      fingerprint: charged.fingerprint,
      event: { id: charged.usageEventId, status: 'charged', balanceAfter: 0n },
    });
  });

  it('findChargedUsage still answers after the service and rule it was charged under are gone', async () => {
    const { store, id } = f();
    const t = await f().tenant();
    await f().fund(t.developer.id, t.customer.id, 10n);
    const key = id('k');
    const input = f().charge(t, t.customer, key, 3n);
    await store.chargeUsage(input);
    await store.updatePricingRule(t.developer.id, t.rule.id, { active: false }, new Date());
    expect(await store.deleteService(t.developer.id, t.service.id)).toBe(true);
    expect(await store.findChargedUsage(t.developer.id, key)).toMatchObject({
      fingerprint: input.fingerprint,
      event: {
        id: input.usageEventId,
        serviceId: t.service.id,
        serviceSlug: 'api',
        pricingRuleId: t.rule.id,
      },
    });
  });
}
