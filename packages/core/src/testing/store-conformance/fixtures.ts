import { expect } from 'vitest';
import { ulidFactory } from '../../domain/ids.js';
import type { Customer, Developer, MeteredService, PaymentRequest, PricingRule } from '../../domain/types.js';
import { usageFingerprint } from '../../domain/usage.js';
import type { ChargeUsageInput, MeterStore } from '../../ports/meter-store.js';
import type { RawBalance, StoreRawReader } from './raw-reader.js';

/** A developer with one service ("api"), one active per-unit rule on "tokens", and one customer. */
export interface Tenant {
  developer: Developer;
  service: MeteredService;
  rule: PricingRule;
  customer: Customer;
}

export const ZERO_BALANCE: RawBalance = { available: 0n, totalFunded: 0n, totalSpent: 0n };

/** What every conformance test works with: the store, its raw reader, and fixtures built through the store. */
export function createFixtures(store: MeterStore, raw: StoreRawReader) {
  const nextUlid = ulidFactory();
  const id = (prefix: string) => `${prefix}_${nextUlid()}`;

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
      webhookEvents: ['usage.charged'],
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
      event: { id: id('evt'), payload: '{}' },
      webhooks: [],
    });
  }

  async function fund(developerId: string, customerId: string, amount: bigint): Promise<void> {
    const request = await paymentRequest(developerId, customerId, amount);
    expect((await credit(developerId, request.id)).outcome).toBe('credited');
  }

  /** A charge of `amount` for one usage of "tokens"; `webhook` adds an outbox row. */
  function charge(
    t: Pick<Tenant, 'developer' | 'service' | 'rule'>,
    c: Pick<Customer, 'id' | 'externalId'>,
    idempotencyKey: string,
    amount: bigint,
    opts: { quantity?: number; webhook?: boolean } = {},
  ): ChargeUsageInput {
    const quantity = opts.quantity ?? 1;
    const usageEventId = id('use');
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
        ? { deliveryId: id('whd'), eventType: 'usage.charged', payload: `{"id":"${usageEventId}"}` }
        : null,
    };
  }

  /** The stored CKB balance; a customer with nothing stored reads as zero. */
  async function balance(customerId: string): Promise<RawBalance> {
    return (await raw.balance(customerId, 'CKB')) ?? ZERO_BALANCE;
  }

  return { store, raw, id, tenant, customer, paymentRequest, credit, fund, charge, balance };
}

export type Fixtures = ReturnType<typeof createFixtures>;

/** The fixtures of the running suite; throws when its setup failed. */
export type GetFixtures = () => Fixtures;
