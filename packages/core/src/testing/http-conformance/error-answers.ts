import { expect, it } from 'vitest';
import { apiRoutes } from '../../http/routes/index.js';
import type { WalkState } from './account-routes.js';
import { expectError } from './client.js';
import type { SuiteContext } from './context.js';

/** The error statuses that are not a route's own: auth, 403, 405, 429 with their headers. */
export function errorAnswerTests(s: () => SuiteContext, state: WalkState): void {
  it('every authenticated route answers 401 with the error body when no credentials are sent', async () => {
    for (const route of apiRoutes.filter((r) => r.auth !== 'none')) {
      const path = route.path.replace(/:([A-Za-z]+)/g, (_, key: string) => (key === 'asset' ? 'CKB' : 'x_1'));
      const res = await s().api.request(route.method, path, route.method === 'GET' ? {} : { json: {} });
      expectError(res, 401, 'unauthorized');
    }
  });

  it('a bad token, a foreign scheme, and an API key on a dashboard route are 401', async () => {
    const { api } = s();
    expectError(await api.get('/api/auth/me', 'not-a-jwt'), 401, 'unauthorized');
    expectError(await api.request('GET', '/api/auth/me', { headers: { authorization: 'Basic YTpi' } }), 401);
    expectError(await api.get('/api/customers', state.apiKey), 401, 'unauthorized');
    const wrongKey = await api.request('POST', '/api/usage-events', {
      json: {},
      headers: { 'x-api-key': 'mk_wrong' },
    });
    expectError(wrongKey, 401, 'unauthorized');
  });

  it('validation errors list the field issues in details', async () => {
    const res = await s().api.post('/api/customers', { externalId: 5, email: 'x' }, state.token);
    expectError(res, 400, 'validation_error');
    expect(res.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'email',
      'externalId',
    ]);
  });

  it('a known path with the wrong method is a 405 with an Allow header', async () => {
    const res = await s().api.request('PATCH', '/api/customers', { token: state.token });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
  });

  it('ten failed logins for one email are braked with 429 and Retry-After', async () => {
    const { api } = s();
    const email = 'braked@example.com';
    for (let i = 0; i < 10; i++) {
      expectError(await api.post('/api/auth/login', { email, password: `wrong-${i}` }), 401);
    }
    const braked = await api.post('/api/auth/login', { email, password: 'whatever' });
    expectError(braked, 429, 'rate_limited');
    expect(Number(braked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('registration turned off is a 403', async () => {
    const closed = await s().host({ allowRegistration: false }, { parseJsonFirst: false });
    const res = await closed.post('/api/auth/register', {
      email: 'late@example.com',
      password: 'long enough',
      name: 'L',
    });
    expectError(res, 403, 'forbidden');
  });
}
