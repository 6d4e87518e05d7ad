import { createMeterClient, MeterApiError, type MeterClient } from '@meter/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../../../test/support/harness.js';
import { startReceiver, uniqueEmail, until } from './support.js';

const SECRET = 'whsec_client_methods_0123456789';

/** Every method of the client, once, against the real stack on a socket. */
describe('createMeterClient against a running server', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let client: MeterClient;
  const email = uniqueEmail('client');
  const ids = { service: '', rule: '', customer: '', paymentRequest: '', delivery: '' };

  beforeAll(async () => {
    app = await startApp();
    receiver = await startReceiver(SECRET);
    client = createMeterClient({ baseUrl: app.baseUrl });
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it('health and channel config need no credentials', async () => {
    expect(await client.health()).toEqual({ status: 'ok' });
    expect(await client.channel.config()).toMatchObject({ provider: 'simulated', currency: 'CKB' });
  });

  it('auth: register and login keep the token; me reads it; setToken replaces it', async () => {
    const registered = await client.auth.register({ email, password: 'correct-horse', name: 'Client' });
    expect(client.auth.getToken()).toBe(registered.token);
    const session = await client.auth.login({ email, password: 'correct-horse' });
    expect(session).toMatchObject({ developer: { email }, token: expect.any(String) });
    expect(client.auth.getToken()).toBe(session.token);
    expect((await client.auth.me()).developer.id).toBe(registered.developer.id);
    client.auth.setToken(undefined);
    await expect(client.auth.me()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    client.auth.setToken(session.token);
  });

  it('API keys: create shows the key once, list and revoke', async () => {
    const created = await client.apiKeys.create({ name: 'backend' });
    expect(created.key).toMatch(/^mk_/);
    const listed = await client.apiKeys.list();
    expect(listed.map((k) => k.id)).toContain(created.id);
    expect(listed[0]).not.toHaveProperty('key');
    await client.apiKeys.revoke(created.id);
    expect((await client.apiKeys.list()).find((k) => k.id === created.id)?.revokedAt).toEqual(
      expect.any(String),
    );
  });

  it('services: create, list, get, update, rotate-secret, delete', async () => {
    const service = await client.services.create({ name: 'Words', slug: 'words', webhookSecret: SECRET });
    ids.service = service.id;
    const extra = await client.services.create({ name: 'Other', slug: 'other' });
    const page = await client.services.list({ limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await client.services.list({ limit: 1, cursor: page.nextCursor });
    expect(next.nextCursor).toBeNull();
    expect([page.items[0]!.id, next.items[0]!.id].sort()).toEqual([service.id, extra.id].sort());
    expect((await client.services.get(service.id)).slug).toBe('words');
    const updated = await client.services.update(service.id, { webhookUrl: receiver.url });
    expect(updated.webhookUrl).toBe(receiver.url);
    const rotated = await client.services.rotateSecret(extra.id);
    expect(rotated.webhookSecret).not.toBe(extra.webhookSecret);
    await client.services.delete(extra.id);
    await expect(client.services.get(extra.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('pricing rules: create, list, get, update, delete', async () => {
    const rule = await client.pricingRules.create(ids.service, {
      name: 'Words',
      metricKey: 'words',
      unitName: 'word',
      pricingModel: 'per_unit',
      price: '0.01',
    });
    ids.rule = rule.id;
    const spare = await client.pricingRules.create(ids.service, {
      name: 'Chars',
      metricKey: 'chars',
      unitName: 'char',
      pricingModel: 'per_1000_units',
      price: '1',
      active: false,
    });
    expect((await client.pricingRules.list(ids.service)).map((r) => r.id).sort()).toEqual(
      [rule.id, spare.id].sort(),
    );
    expect((await client.pricingRules.get(rule.id)).price).toBe('0.01');
    expect((await client.pricingRules.update(spare.id, { price: '2.50' })).price).toBe('2.5');
    await client.pricingRules.delete(spare.id);
    expect(await client.pricingRules.list(ids.service)).toHaveLength(1);
  });

  it('customers: create, list, get, update, delete', async () => {
    const customer = await client.customers.create({ externalId: 'acme', name: 'Acme', metadata: { a: 1 } });
    ids.customer = customer.id;
    const spare = await client.customers.create({ externalId: 'spare' });
    expect((await client.customers.list()).items.map((c) => c.externalId).sort()).toEqual(['acme', 'spare']);
    expect((await client.customers.get(customer.id)).metadata).toEqual({ a: 1 });
    expect((await client.customers.update(customer.id, { email: 'billing@acme.example' })).email).toBe(
      'billing@acme.example',
    );
    await client.customers.delete(spare.id);
    expect((await client.customers.list()).items).toHaveLength(1);
  });

  it('payment requests: create, list, get, simulate-paid, verify; balances', async () => {
    expect(await client.balances.get(ids.customer)).toMatchObject({ availableBalance: '0', asset: 'CKB' });
    const pr = await client.paymentRequests.create({ customerId: ids.customer, amount: '1', asset: 'CKB' });
    ids.paymentRequest = pr.id;
    expect(pr).toMatchObject({ status: 'pending', provider: 'simulated', paymentUri: expect.any(String) });
    const notYet = await client.paymentRequests.verify(pr.id);
    expect(notYet.verification).toMatchObject({ paid: false, alreadyPaid: false });
    expect((await client.paymentRequests.list({ status: 'pending' })).items.map((p) => p.id)).toEqual([
      pr.id,
    ]);
    const paid = await client.paymentRequests.simulatePaid(pr.id);
    expect(paid.verification).toEqual({ paid: true, alreadyPaid: false });
    expect((await client.paymentRequests.verify(pr.id)).verification).toMatchObject({ alreadyPaid: true });
    expect((await client.paymentRequests.get(pr.id)).status).toBe('paid');
    expect((await client.paymentRequests.list({ customerId: ids.customer })).items).toHaveLength(1);
    const [balance] = await client.balances.list(ids.customer);
    expect(balance).toMatchObject({ availableBalance: '1', totalFunded: '1', totalSpent: '0' });
  });

  it('usage: charged, then insufficient_balance as a normal result; listed with filters', async () => {
    const charged = await client.usage.record({
      service: 'words',
      customer: 'acme',
      metricKey: 'words',
      quantity: 60,
      idempotencyKey: 'methods-1',
    });
    expect(charged).toMatchObject({
      status: 'charged',
      amount: '0.6',
      balanceRemaining: '0.4',
      idempotencyKey: 'methods-1',
      attempts: 1,
    });
    const refused = await client.usage.record({
      service: 'words',
      customer: 'acme',
      metricKey: 'words',
      quantity: 60,
    });
    expect(refused).toMatchObject({
      status: 'insufficient_balance',
      required: '0.6',
      available: '0.4',
      paymentRequired: true,
    });
    const all = await client.usage.list({ customer: 'acme', service: 'words' });
    expect(all.items.map((u) => u.status)).toEqual(['insufficient_balance', 'charged']);
    const onlyCharged = await client.usage.list({ status: 'charged', limit: 5 });
    expect(onlyCharged.items.map((u) => u.idempotencyKey)).toEqual(['methods-1']);
    const ledger = await client.ledger.list({ customerId: ids.customer, asset: 'CKB' });
    expect(ledger.items.map((l) => [l.direction, l.amount])).toEqual([
      ['debit', '0.6'],
      ['credit', '1'],
    ]);
  });

  it('webhook deliveries: list, get, retry, retry-failed; events', async () => {
    const delivery = await until(async () => {
      const [d] = (await client.webhookDeliveries.list({ status: 'sent' })).items;
      return d;
    });
    ids.delivery = delivery.id;
    expect(receiver.store.has(delivery.id)).toBe(true);
    expect((await client.webhookDeliveries.get(delivery.id)).eventType).toBe('usage.charged');
    const retried = await client.webhookDeliveries.retry(delivery.id);
    expect(retried.attempts).toHaveLength(2);
    expect(retried.attempts[1]).toMatchObject({ statusCode: 200, url: receiver.url });
    expect(
      await client.webhookDeliveries.retryFailed(ids.service, { since: '2020-01-01T00:00:00Z' }),
    ).toEqual({
      requeued: 0,
    });
    const events = await client.events.list({ type: 'balance.funded' });
    expect(events.items.map((e) => e.subjectId)).toContain(ids.paymentRequest);
  });

  it('channel diagnostics and the dashboard summary', async () => {
    expect(await client.channel.health()).toMatchObject({ mode: 'simulated', ok: true });
    const translated = await client.channel.translateError({ error: 'Failed to build route, no path found' });
    expect(translated).toMatchObject({ family: 'no_route', matched: true });
    // Live-only diagnostics answer 403 in simulated mode: an API error like any other.
    await expect(client.channel.preflight({ invoice: 'fibt1xyz' })).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    await expect(client.channel.liveProof()).rejects.toBeInstanceOf(MeterApiError);
    const summary = await client.dashboard.summary();
    expect(summary).toMatchObject({
      customers: 1,
      services: 1,
      usage: { charged: 1, insufficientBalance: 1 },
    });
    expect(summary.recentPaymentRequests[0]?.id).toBe(ids.paymentRequest);
  });
});
