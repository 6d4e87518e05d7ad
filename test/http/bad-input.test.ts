import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, fund, setupFixture, startApp, type TestApp, usage } from '../support/harness.js';

describe('bad input gets a 4xx with the error body: never a 500, never a partial write', () => {
  let app: TestApp;
  let f: Fixture;
  let apiKey: string;

  beforeAll(async () => {
    app = await startApp();
    f = await setupFixture(app.api, { price: '1' });
    await fund(app.api, f.token, f.customerId, '10');
    apiKey = (await app.api.post('/api/api-keys', { name: 'k' }, f.token)).body.key;
  });
  afterAll(async () => {
    await app.close();
  });

  const long = (n: number) => 'x'.repeat(n);
  const rule = { name: 'r', metricKey: 'm2', unitName: 'u', pricingModel: 'per_unit', price: '1' };
  const pr = (over: Record<string, unknown>) => ({
    customerId: '$customer',
    amount: '1',
    asset: 'CKB',
    ...over,
  });
  const use = (over: Record<string, unknown>) => ({
    ...usage({ slug: 'words', externalId: 'acme' } as Fixture, 1, 'bad'),
    ...over,
  });

  // [name, method, path, body (object, or string = raw bytes), expected status]
  const cases: [string, string, string, unknown, number][] = [
    ['malformed JSON', 'POST', '/api/customers', '{"externalId": ', 400],
    ['JSON array body', 'POST', '/api/customers', '[1,2]', 400],
    ['JSON string body', 'POST', '/api/customers', '"hi"', 400],
    ['invalid UTF-8', 'POST', '/api/customers', '\u00ff', 400],
    ['missing externalId', 'POST', '/api/customers', { name: 'x' }, 400],
    ['externalId wrong type', 'POST', '/api/customers', { externalId: 123 }, 400],
    ['externalId too long', 'POST', '/api/customers', { externalId: long(201) }, 400],
    ['name too long', 'POST', '/api/customers', { externalId: 'n1', name: long(5000) }, 400],
    ['bad email', 'POST', '/api/customers', { externalId: 'n2', email: 'not-an-email' }, 400],
    ['metadata not an object', 'POST', '/api/customers', { externalId: 'n3', metadata: [1] }, 400],
    [
      'metadata too large',
      'POST',
      '/api/customers',
      { externalId: 'n4', metadata: { a: long(20_000) } },
      400,
    ],
    ['duplicate externalId', 'POST', '/api/customers', { externalId: 'acme' }, 409],
    ['service without slug', 'POST', '/api/services', { name: 'x' }, 400],
    ['service bad slug', 'POST', '/api/services', { name: 'x', slug: 'Has Spaces' }, 400],
    ['service ftp webhook', 'POST', '/api/services', { name: 'x', slug: 's1', webhookUrl: 'ftp://x/y' }, 400],
    ['service short secret', 'POST', '/api/services', { name: 'x', slug: 's2', webhookSecret: 'short' }, 400],
    ['service unknown asset', 'POST', '/api/services', { name: 'x', slug: 's3', defaultAsset: 'BTC' }, 400],
    ['duplicate slug', 'POST', '/api/services', { name: 'x', slug: 'words' }, 409],
    [
      'rule unknown model',
      'POST',
      '/api/services/$service/pricing-rules',
      { ...rule, pricingModel: 'tiered?' },
      400,
    ],
    [
      'rule 13 decimals',
      'POST',
      '/api/services/$service/pricing-rules',
      { ...rule, price: '0.0000000000001' },
      400,
    ],
    ['rule negative price', 'POST', '/api/services/$service/pricing-rules', { ...rule, price: '-1' }, 400],
    ['rule exponent price', 'POST', '/api/services/$service/pricing-rules', { ...rule, price: '1e-3' }, 400],
    ['rule numeric price', 'POST', '/api/services/$service/pricing-rules', { ...rule, price: 1 }, 400],
    [
      'rule bad metricKey',
      'POST',
      '/api/services/$service/pricing-rules',
      { ...rule, metricKey: 'has space' },
      400,
    ],
    [
      'second active rule',
      'POST',
      '/api/services/$service/pricing-rules',
      { ...rule, metricKey: 'words' },
      409,
    ],
    ['payment zero', 'POST', '/api/payment-requests', pr({ amount: '0' }), 400],
    ['payment negative', 'POST', '/api/payment-requests', pr({ amount: '-1' }), 400],
    ['payment exponent', 'POST', '/api/payment-requests', pr({ amount: '1e3' }), 400],
    ['payment 9 decimals', 'POST', '/api/payment-requests', pr({ amount: '0.000000001' }), 400],
    ['payment NaN', 'POST', '/api/payment-requests', pr({ amount: 'NaN' }), 400],
    ['payment number', 'POST', '/api/payment-requests', pr({ amount: 1 }), 400],
    ['payment huge', 'POST', '/api/payment-requests', pr({ amount: '1'.repeat(30) }), 400],
    ['payment unknown asset', 'POST', '/api/payment-requests', pr({ asset: 'BTC' }), 400],
    ['payment unknown customer', 'POST', '/api/payment-requests', pr({ customerId: 'cus_nope' }), 404],
    ['usage quantity 0', 'POST', '/api/usage-events', use({ quantity: 0 }), 400],
    ['usage quantity negative', 'POST', '/api/usage-events', use({ quantity: -5 }), 400],
    ['usage quantity string', 'POST', '/api/usage-events', use({ quantity: '1' }), 400],
    ['usage quantity NaN string', 'POST', '/api/usage-events', use({ quantity: 'NaN' }), 400],
    ['usage quantity null', 'POST', '/api/usage-events', use({ quantity: null }), 400],
    ['usage quantity huge', 'POST', '/api/usage-events', use({ quantity: 1e300 }), 400],
    [
      'usage quantity 1e16',
      'POST',
      '/api/usage-events',
      '{"service":"words","customer":"acme","metricKey":"words","quantity":1e16,"idempotencyKey":"q"}',
      400,
    ],
    ['usage no idempotencyKey', 'POST', '/api/usage-events', use({ idempotencyKey: undefined }), 400],
    ['usage long idempotencyKey', 'POST', '/api/usage-events', use({ idempotencyKey: long(256) }), 400],
    ['usage bad metricKey', 'POST', '/api/usage-events', use({ metricKey: 'a b' }), 400],
    ['usage unknown metric', 'POST', '/api/usage-events', use({ metricKey: 'nope' }), 404],
    ['usage unknown service', 'POST', '/api/usage-events', use({ service: 'nope' }), 404],
    ['usage unknown customer', 'POST', '/api/usage-events', use({ customer: 'nope' }), 404],
    ['list limit 0', 'GET', '/api/customers?limit=0', undefined, 400],
    ['list limit text', 'GET', '/api/customers?limit=abc', undefined, 400],
    ['list limit 5000', 'GET', '/api/customers?limit=5000', undefined, 400],
    ['list bad status', 'GET', '/api/payment-requests?status=bogus', undefined, 400],
    ['balance unknown asset', 'GET', '/api/customers/$customer/balances/BTC', undefined, 400],
    ['update rule bad price', 'PUT', '/api/pricing-rules/$rule', { price: 'abc' }, 400],
    ['update customer bad type', 'PUT', '/api/customers/$customer', { metadata: 'x' }, 400],
    ['unknown route', 'GET', '/api/nothing-here', undefined, 404],
    ['wrong method', 'PATCH', '/api/customers', undefined, 405],
    [
      'register short password',
      'POST',
      '/api/auth/register',
      { email: 'a@b.co', password: 'short', name: 'x' },
      400,
    ],
    [
      'register bad email',
      'POST',
      '/api/auth/register',
      { email: 'nope', password: 'long enough pw', name: 'x' },
      400,
    ],
    [
      'login wrong password',
      'POST',
      '/api/auth/login',
      { email: 'nobody@example.com', password: 'whatever1' },
      401,
    ],
    ['login wrong types', 'POST', '/api/auth/login', { email: 1, password: [] }, 400],
  ];

  it.each(cases)('%s', async (_name, method, template, body, status) => {
    const sub = (s: string) =>
      s.replace('$customer', f.customerId).replace('$service', f.serviceId).replace('$rule', f.ruleId);
    const payload =
      body === undefined
        ? {}
        : typeof body === 'string'
          ? { rawBody: body === '\u00ff' ? new Uint8Array([0x7b, 0xff, 0x7d]) : body }
          : { body: JSON.parse(sub(JSON.stringify(body))) };
    const res = await app.api.request(method, sub(template), { token: f.token, ...payload });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({
      error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
    });
  });

  it('validation errors list the field issues', async () => {
    const res = await app.api.post('/api/customers', { externalId: 5, email: 'x' }, f.token);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'email',
      'externalId',
    ]);
  });

  it('authentication failures are 401', async () => {
    expect((await app.api.get('/api/customers')).status).toBe(401);
    expect((await app.api.get('/api/customers', 'not-a-jwt')).status).toBe(401);
    expect(
      (await app.api.request('GET', '/api/customers', { headers: { authorization: 'Basic abc' } })).status,
    ).toBe(401);
    expect((await app.api.get('/api/customers', apiKey)).status).toBe(401);
    const bad = await app.api.request('POST', '/api/usage-events', {
      body: use({}),
      headers: { 'x-api-key': 'mk_wrong' },
    });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('unauthorized');
  });

  it('none of the refused requests wrote anything', async () => {
    const t = f.token;
    expect((await app.api.get('/api/customers', t)).body).toHaveLength(1);
    expect((await app.api.get('/api/services', t)).body).toHaveLength(1);
    expect((await app.api.get(`/api/services/${f.serviceId}/pricing-rules`, t)).body).toHaveLength(1);
    expect((await app.api.get('/api/payment-requests', t)).body).toHaveLength(1);
    expect((await app.api.get('/api/usage-events', t)).body).toHaveLength(0);
    expect((await app.api.get(`/api/customers/${f.customerId}/balances/CKB`, t)).body.availableBalance).toBe(
      '10',
    );
    expect(await app.meter.checkInvariants()).toEqual([]);
  });

  it('usage accepts an API key in X-Api-Key or Authorization, and Authorization decides', async () => {
    const viaHeader = await app.api.request('POST', '/api/usage-events', {
      body: use({ idempotencyKey: 'key-1' }),
      headers: { 'x-api-key': apiKey },
    });
    expect(viaHeader.body.status).toBe('charged');
    const viaBearer = await app.api.request('POST', '/api/usage-events', {
      body: use({ idempotencyKey: 'key-2' }),
      token: apiKey,
    });
    expect(viaBearer.body.status).toBe('charged');
    const both = await app.api.request('POST', '/api/usage-events', {
      body: use({ idempotencyKey: 'key-3' }),
      token: 'garbage',
      headers: { 'x-api-key': apiKey },
    });
    expect(both.status).toBe(401);
    await app.api.del(`/api/api-keys/${(await app.api.get('/api/api-keys', f.token)).body[0].id}`, f.token);
    const revoked = await app.api.request('POST', '/api/usage-events', {
      body: use({ idempotencyKey: 'key-4' }),
      token: apiKey,
    });
    expect(revoked.status).toBe(401);
  });
});
