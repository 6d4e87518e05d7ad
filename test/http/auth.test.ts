import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startApp, type TestApp } from '../support/harness.js';

describe('authentication', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('registers, logs in with any email case, and reads /me', async () => {
    const { email } = await signUp(app.api, 'alice');
    const login = await app.api.post('/api/auth/login', {
      email: email.toUpperCase(),
      password: 'correct horse battery',
    });
    expect(login.status).toBe(200);
    expect(Date.parse(login.body.expiresAt) - Date.now()).toBeGreaterThan(11 * 3600_000);
    const me = await app.api.get('/api/auth/me', login.body.token);
    expect(me.body.developer.email).toBe(email);
    expect(me.body.developer).not.toHaveProperty('passwordHash');
    const dup = await app.api.post('/api/auth/register', { email, password: 'another password', name: 'x' });
    expect(dup.status).toBe(409);
  });

  it('brakes password guessing per email with 429 and Retry-After, without locking out other accounts', async () => {
    const victim = await signUp(app.api, 'victim');
    const other = await signUp(app.api, 'other');
    for (let i = 0; i < 10; i++) {
      const res = await app.api.post('/api/auth/login', { email: victim.email, password: `wrong-${i}-pw` });
      expect(res.status).toBe(401);
    }
    const blocked = await app.api.post('/api/auth/login', {
      email: victim.email,
      password: 'correct horse battery',
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // A forged X-Forwarded-For does not reset the brake.
    const forged = await app.api.request('POST', '/api/auth/login', {
      body: { email: victim.email, password: 'correct horse battery' },
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(forged.status).toBe(429);
    const fine = await app.api.post('/api/auth/login', {
      email: other.email,
      password: 'correct horse battery',
    });
    expect(fine.status).toBe(200);
  });

  it('refuses a token signed with another secret and an expired token', async () => {
    const { token } = await signUp(app.api, 'eve');
    const [h, p] = token.split('.');
    expect((await app.api.get('/api/auth/me', `${h}.${p}.AAAA`)).status).toBe(401);
    const { createJwt } = await import('@meter/core');
    const jwt = createJwt({ secret: 'test-jwt-secret-that-is-long-enough-0123456789', ttlSeconds: 60 });
    const old = await jwt.issue('dev_x', new Date(Date.now() - 3600_000));
    const res = await app.api.get('/api/auth/me', old.token);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);
  });
});
