import { expect, it } from 'vitest';
import { expectError, expectOk } from './client.js';
import type { SuiteContext } from './context.js';

export const PASSWORD = 'correct horse battery staple';

/** What the route walk carries from one step to the next. */
export interface WalkState {
  email: string;
  token: string;
  apiKey: string;
  serviceId: string;
  ruleId: string;
}

/** Health, channel config, auth, API keys, services and pricing rules: every status they document. */
export function accountRouteTests(s: () => SuiteContext, state: WalkState): void {
  it('GET /health and GET /api/channel/config answer without credentials', async () => {
    const health = await s().api.get('/health');
    expectOk(health);
    expect(health.body).toEqual({ status: 'ok' });
    const config = await s().api.get('/api/channel/config');
    expectOk(config);
    expect(Object.keys(config.body).sort()).toEqual([
      'currency',
      'explorerUrl',
      'invoiceExpirySecs',
      'provider',
    ]);
    expect(config.body.provider).toBe(s().meter.provider.mode);
  });

  it('registers (201, 409, 400), logs in (200, 401) and reads GET /api/auth/me', async () => {
    const { api } = s();
    state.email = 'owner@example.com';
    const reg = await api.post('/api/auth/register', {
      email: state.email,
      password: PASSWORD,
      name: 'Owner',
    });
    expectOk(reg, 201);
    expect(reg.body).toMatchObject({
      developer: { email: state.email, name: 'Owner' },
      token: expect.any(String),
    });
    const again = { email: state.email, password: PASSWORD, name: 'Again' };
    expectError(await api.post('/api/auth/register', again), 409, 'conflict');
    expectError(
      await api.post('/api/auth/register', { email: 'x', password: 'short' }),
      400,
      'validation_error',
    );
    expectError(await api.post('/api/auth/login', { email: state.email, password: 'wrong' }), 401);
    const login = await api.post('/api/auth/login', { email: state.email, password: PASSWORD });
    expectOk(login);
    expect(Date.parse(login.body.expiresAt)).toBeGreaterThan(s().clock.now().getTime());
    state.token = login.body.token;
    const me = await api.get('/api/auth/me', state.token);
    expectOk(me);
    expect(me.body.developer).toMatchObject({ email: state.email, name: 'Owner' });
  });

  it('API keys: POST 201 (key shown once), GET without the key, DELETE 204, unknown 404', async () => {
    const { api } = s();
    const created = await api.post('/api/api-keys', { name: 'ingest' }, state.token);
    expectOk(created, 201);
    expect(created.body.key).toMatch(/^mk_/);
    state.apiKey = created.body.key;
    const spare = await api.post('/api/api-keys', { name: 'spare' }, state.token);
    const list = await api.get('/api/api-keys', state.token);
    expectOk(list);
    expect(list.body.map((k: { name: string }) => k.name)).toEqual(['spare', 'ingest']);
    expect(list.body[0]).not.toHaveProperty('key');
    expectOk(await api.del(`/api/api-keys/${spare.body.id}`, state.token), 204);
    expectError(await api.del('/api/api-keys/key_unknown', state.token), 404, 'not_found');
  });

  it('services: create 201 (409 on a taken slug), list, get, update, rotate the secret, delete 204', async () => {
    const { api } = s();
    const t = state.token;
    const hook = `${api.baseUrl}/host/ping`;
    const svc = await api.post('/api/services', { name: 'Words', slug: 'words', webhookUrl: hook }, t);
    expectOk(svc, 201);
    expect(svc.body).toMatchObject({ slug: 'words', webhookUrl: hook, webhookSecret: expect.any(String) });
    state.serviceId = svc.body.id;
    expectError(await api.post('/api/services', { name: 'Again', slug: 'words' }, t), 409, 'conflict');
    expectError(await api.post('/api/services', { name: 'No slug' }, t), 400, 'validation_error');
    const list = await api.get('/api/services', t);
    expectOk(list);
    expect(list.body.map((x: { id: string }) => x.id)).toEqual([state.serviceId]);
    expectOk(await api.get(`/api/services/${state.serviceId}`, t));
    const put = await api.put(`/api/services/${state.serviceId}`, { description: 'Counts words' }, t);
    expectOk(put);
    expect(put.body).toMatchObject({ description: 'Counts words', slug: 'words' });
    const rotated = await api.post(`/api/services/${state.serviceId}/rotate-secret`, {}, t);
    expectOk(rotated);
    expect(rotated.body.webhookSecret).not.toBe(svc.body.webhookSecret);
    const doomed = await api.post('/api/services', { name: 'Doomed', slug: 'doomed' }, t);
    expectOk(await api.del(`/api/services/${doomed.body.id}`, t), 204);
    expectError(await api.get(`/api/services/${doomed.body.id}`, t), 404, 'not_found');
  });

  it('pricing rules: create 201 (409 for a second active rule), list, get, update, delete 204', async () => {
    const { api } = s();
    const t = state.token;
    const base = `/api/services/${state.serviceId}/pricing-rules`;
    const body = {
      name: 'Words',
      metricKey: 'words',
      unitName: 'word',
      pricingModel: 'per_unit',
      price: '0.5',
    };
    const rule = await api.post(base, body, t);
    expectOk(rule, 201);
    expect(rule.body).toMatchObject({ metricKey: 'words', price: '0.5', asset: 'CKB', active: true });
    state.ruleId = rule.body.id;
    expectError(await api.post(base, body, t), 409, 'conflict');
    expectError(await api.post(base, { ...body, metricKey: 'x', price: '1e3' }, t), 400, 'validation_error');
    const list = await api.get(base, t);
    expectOk(list);
    expect(list.body.map((r: { id: string }) => r.id)).toEqual([state.ruleId]);
    expectOk(await api.get(`/api/pricing-rules/${state.ruleId}`, t));
    const put = await api.put(`/api/pricing-rules/${state.ruleId}`, { name: 'Words (v2)' }, t);
    expectOk(put);
    expect(put.body).toMatchObject({ name: 'Words (v2)', price: '0.5' });
    const spare = await api.post(base, { ...body, metricKey: 'chars' }, t);
    expectOk(await api.del(`/api/pricing-rules/${spare.body.id}`, t), 204);
    expectError(await api.get(`/api/pricing-rules/${spare.body.id}`, t), 404, 'not_found');
  });
}
