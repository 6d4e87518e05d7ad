import {
  type ChargeUsageInput,
  type Customer,
  type Developer,
  type MeteredService,
  type MeterStore,
  type PaymentRequest,
  type PricingRule,
  ulidIds,
  usageFingerprint,
} from '@meter/core';
import type { Knex } from 'knex';
import { expect } from 'vitest';

export interface Tenant {
  developer: Developer;
  service: MeteredService;
  rule: PricingRule;
  customer: Customer;
}

export interface RawBalance {
  available: bigint;
  totalFunded: bigint;
  totalSpent: bigint;
}

/** Reads an integer column as the database stored it, independent of the store's own mapping. */
export function exact(value: unknown): bigint {
  if (typeof value === 'number') expect(Number.isSafeInteger(value)).toBe(true);
  else expect(['bigint', 'string']).toContain(typeof value);
  return BigInt(String(value));
}

/** Fixtures plus a raw backdoor onto the tables, to check what was really written. */
export function createHarness(store: MeterStore, knex: Knex) {
  const ids = ulidIds();
  const id = (prefix: string) => ids.newId(prefix);

  async function customer(developerId: string, externalId = id('ext')): Promise<Customer> {
    return store.createCustomer({
      id: id('cus'),
      developerId,
      externalId,
      name: null,
      email: null,
      metadata: {},
      createdAt: new Date(),
    });
  }

  async function tenant(): Promise<Tenant> {
    const developer = await store.createDeveloper({
      id: id('dev'),
      email: `${id('e')}@Example.COM`,
      name: 'Dev',
      passwordHash: 'scrypt$hash',
      createdAt: new Date(),
    });
    const service = await store.createService({
      id: id('svc'),
      developerId: developer.id,
      name: 'API',
      slug: 'api',
      description: null,
      webhookUrl: 'https://example.test/hook',
      webhookSecret: 'whsec_0123456789abcdef',
      defaultAsset: 'CKB',
      createdAt: new Date(),
    });
    const rule = await store.createPricingRule({
      id: id('prc'),
      developerId: developer.id,
      serviceId: service.id,
      name: 'Tokens',
      metricKey: 'tokens',
      unitName: 'token',
      pricingModel: 'per_unit',
      price: '0.000001',
      asset: 'CKB',
      active: true,
      createdAt: new Date(),
    });
    return { developer, service, rule, customer: await customer(developer.id) };
  }

  async function paymentRequest(
    developerId: string,
    customerId: string,
    amount: bigint,
    expiresAt = new Date(Date.now() + 3_600_000),
  ): Promise<PaymentRequest> {
    return store.createPaymentRequest({
      id: id('pr'),
      developerId,
      customerId,
      amount,
      asset: 'CKB',
      provider: 'simulated',
      paymentUri: 'sim://pay',
      paymentHash: null,
      expiresAt,
      metadata: { note: 'test' },
      createdAt: new Date(),
    });
  }

  function credit(developerId: string, paymentRequestId: string, enforceExpiry = true) {
    return store.creditPaymentRequest({
      developerId,
      paymentRequestId,
      ledgerEntryId: id('led'),
      now: new Date(),
      enforceExpiry,
    });
  }

  async function fund(developerId: string, customerId: string, amount: bigint): Promise<void> {
    const request = await paymentRequest(developerId, customerId, amount);
    expect((await credit(developerId, request.id)).outcome).toBe('credited');
  }

  function charge(
    t: Pick<Tenant, 'developer' | 'service' | 'rule'>,
    c: Customer,
    idempotencyKey: string,
    amount: bigint,
    opts: { quantity?: number; webhook?: boolean } = {},
  ): ChargeUsageInput {
    const quantity = opts.quantity ?? 1;
    const usageEventId = id('use');
    const deliveryId = id('whd');
    return {
      developerId: t.developer.id,
      usageEventId,
      ledgerEntryId: id('led'),
      service: { id: t.service.id, slug: t.service.slug },
      customer: { id: c.id, externalId: c.externalId },
      pricingRuleId: t.rule.id,
      metricKey: 'tokens',
      quantity,
      amount,
      asset: 'CKB',
      idempotencyKey,
      fingerprint: usageFingerprint({
        serviceId: t.service.id,
        customerId: c.id,
        metricKey: 'tokens',
        quantity,
      }),
      metadata: { request: idempotencyKey },
      now: new Date(),
      webhook: opts.webhook
        ? { deliveryId, eventType: 'usage.charged', payload: `{"id":"${usageEventId}"}` }
        : null,
    };
  }

  async function rawBalance(customerId: string): Promise<RawBalance | null> {
    const row = await knex('balances').where({ customer_id: customerId, asset: 'CKB' }).first();
    if (!row) return null;
    return {
      available: exact(row.available),
      totalFunded: exact(row.total_funded),
      totalSpent: exact(row.total_spent),
    };
  }

  async function rawCount(table: string, where: Record<string, unknown>): Promise<number> {
    const [row] = await knex(table).where(where).count({ n: '*' });
    return Number(row?.n);
  }

  return { store, knex, id, tenant, customer, paymentRequest, credit, fund, charge, rawBalance, rawCount };
}

export type Harness = ReturnType<typeof createHarness>;
