import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund, setupFixture, signUp, startApp, type TestApp, usage } from '../support/harness.js';
import { startReceiver } from '../support/receiver.js';

describe('tenant isolation: another developer sees 404 for every id, slug and externalId', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const ids: Record<string, string> = {};
  let intruder: string;

  beforeAll(async () => {
    app = await startApp();
    receiver = await startReceiver(
      () => 'x',
      () => 500,
    );
    const a = await setupFixture(app.api, { price: '1', webhookUrl: receiver.url });
    await fund(app.api, a.token, a.customerId, '10');
    const pr = await app.api.post(
      '/api/payment-requests',
      { customerId: a.customerId, amount: '1', asset: 'CKB' },
      a.token,
    );
    await app.api.post('/api/usage-events', usage(a, 1, 'a-1'), a.token);
    await app.meter.idle();
    const deliveries = await app.api.get('/api/webhook-deliveries', a.token);
    const key = await app.api.post('/api/api-keys', { name: 'a' }, a.token);
    Object.assign(ids, {
      service: a.serviceId,
      rule: a.ruleId,
      customer: a.customerId,
      paymentRequest: pr.body.id,
      delivery: deliveries.body[0].id,
      apiKey: key.body.id,
      slug: a.slug,
      externalId: a.externalId,
      ownerToken: a.token,
    });
    intruder = (await signUp(app.api, 'intruder')).token;
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  const cases: [string, string, () => unknown][] = [
    ['GET', '/api/services/:service', () => undefined],
    ['PUT', '/api/services/:service', () => ({ name: 'x' })],
    ['DELETE', '/api/services/:service', () => undefined],
    ['POST', '/api/services/:service/rotate-secret', () => ({})],
    ['GET', '/api/services/:service/pricing-rules', () => undefined],
    [
      'POST',
      '/api/services/:service/pricing-rules',
      () => ({ name: 'x', metricKey: 'm', unitName: 'u', pricingModel: 'per_unit', price: '1' }),
    ],
    ['GET', '/api/pricing-rules/:rule', () => undefined],
    ['PUT', '/api/pricing-rules/:rule', () => ({ active: false })],
    ['DELETE', '/api/pricing-rules/:rule', () => undefined],
    ['GET', '/api/customers/:customer', () => undefined],
    ['PUT', '/api/customers/:customer', () => ({ name: 'x' })],
    ['DELETE', '/api/customers/:customer', () => undefined],
    ['GET', '/api/customers/:customer/balances', () => undefined],
    ['GET', '/api/customers/:customer/balances/CKB', () => undefined],
    ['GET', '/api/ledger?customerId=:customer', () => undefined],
    ['GET', '/api/payment-requests?customerId=:customer', () => undefined],
    ['POST', '/api/payment-requests', () => ({ customerId: ids.customer, amount: '1', asset: 'CKB' })],
    ['GET', '/api/payment-requests/:paymentRequest', () => undefined],
    ['POST', '/api/payment-requests/:paymentRequest/simulate-paid', () => ({})],
    ['POST', '/api/payment-requests/:paymentRequest/verify', () => ({})],
    ['GET', '/api/usage-events?customer=:externalId', () => undefined],
    ['GET', '/api/usage-events?service=:slug', () => undefined],
    [
      'POST',
      '/api/usage-events',
      () => ({
        service: ids.slug,
        customer: ids.externalId,
        metricKey: 'words',
        quantity: 1,
        idempotencyKey: 'i-1',
      }),
    ],
    ['GET', '/api/webhook-deliveries/:delivery', () => undefined],
    ['POST', '/api/webhook-deliveries/:delivery/retry', () => ({})],
    ['DELETE', '/api/api-keys/:apiKey', () => undefined],
  ];

  it.each(cases)('%s %s', async (method, template, body) => {
    const path = template.replace(/:([A-Za-z]+)/g, (_, k: string) => ids[k]!);
    const res = await app.api.request(method, path, {
      token: intruder,
      ...(body() !== undefined ? { body: body() } : {}),
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('lists show the intruder nothing of the owner', async () => {
    for (const path of [
      '/api/services',
      '/api/customers',
      '/api/payment-requests',
      '/api/usage-events',
      '/api/ledger',
      '/api/webhook-deliveries',
      '/api/api-keys',
    ]) {
      const res = await app.api.get(path, intruder);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toEqual([]);
    }
  });

  it('nothing of the owner changed', async () => {
    const t = ids.ownerToken!;
    expect((await app.api.get(`/api/services/${ids.service}`, t)).body.name).toBe('Words');
    expect((await app.api.get(`/api/pricing-rules/${ids.rule}`, t)).body.active).toBe(true);
    expect((await app.api.get(`/api/customers/${ids.customer}`, t)).body.name).toBe('Acme');
    expect((await app.api.get(`/api/payment-requests/${ids.paymentRequest}`, t)).body.status).toBe('pending');
    expect((await app.api.get(`/api/customers/${ids.customer}/balances/CKB`, t)).body.availableBalance).toBe(
      '9',
    );
    expect((await app.api.get('/api/api-keys', t)).body[0].revokedAt).toBeNull();
    expect((await app.api.get(`/api/webhook-deliveries/${ids.delivery}`, t)).body.attemptCount).toBe(1);
    expect(await app.meter.checkInvariants()).toEqual([]);
  });
});
