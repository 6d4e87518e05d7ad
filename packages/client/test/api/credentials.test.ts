import { createMeterClient } from '@meter/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Fixture,
  fund,
  setupFixture,
  startApp,
  type TestApp,
} from '../../../../test/support/harness.js';

/** Which headers each call sends, captured through the client's `fetch` option. */
function recordingFetch() {
  const sent: { path: string; headers: Headers }[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    sent.push({ path: new URL(String(input)).pathname, headers: new Headers(init?.headers) });
    return fetch(input, init);
  };
  return { sent, fetch: fetchImpl };
}

describe('credentials: API key, JWT, or both', () => {
  let app: TestApp;
  let f: Fixture;
  let apiKey: string;
  const usage = (key: string) => ({
    service: 'words',
    customer: 'acme',
    metricKey: 'words',
    quantity: 1,
    idempotencyKey: key,
  });

  beforeAll(async () => {
    app = await startApp();
    f = await setupFixture(app.api);
    await fund(app.api, f.token, f.customerId, '100');
    apiKey = (await app.api.post('/api/api-keys', { name: 'k' }, f.token)).body.key;
  });
  afterAll(() => app?.close());

  it('an API key alone records usage (as X-Api-Key) and is never sent to other routes', async () => {
    const rec = recordingFetch();
    const client = createMeterClient({ baseUrl: app.baseUrl, apiKey, fetch: rec.fetch });
    expect(await client.usage.record(usage('key-only'))).toMatchObject({ status: 'charged' });
    expect(rec.sent[0]!.headers.get('x-api-key')).toBe(apiKey);
    expect(rec.sent[0]!.headers.get('authorization')).toBeNull();
    // Management routes need the JWT: the server refuses, and the client raises its answer.
    await expect(client.customers.list()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(rec.sent[1]!.headers.get('x-api-key')).toBeNull();
  });

  it('a JWT alone works everywhere, usage included', async () => {
    const client = createMeterClient({ baseUrl: app.baseUrl, token: f.token });
    expect(await client.usage.record(usage('jwt-only'))).toMatchObject({ status: 'charged' });
    expect((await client.customers.list()).items).toHaveLength(1);
  });

  it('with both, both headers go to usage ingestion and Authorization decides', async () => {
    const rec = recordingFetch();
    const both = createMeterClient({ baseUrl: app.baseUrl, apiKey, token: f.token, fetch: rec.fetch });
    expect(await both.usage.record(usage('both'))).toMatchObject({ status: 'charged' });
    expect(rec.sent[0]!.headers.get('authorization')).toBe(`Bearer ${f.token}`);
    expect(rec.sent[0]!.headers.get('x-api-key')).toBe(apiKey);

    // A bad token is refused even though the API key is good: Authorization decides.
    const badToken = createMeterClient({ baseUrl: app.baseUrl, apiKey, token: 'not-a-jwt' });
    await expect(badToken.usage.record(usage('bad-token'))).rejects.toMatchObject({ status: 401 });
    // A good token wins over a revoked key.
    const revoked = (await app.api.post('/api/api-keys', { name: 'old' }, f.token)).body;
    await app.api.del(`/api/api-keys/${revoked.id}`, f.token);
    const goodToken = createMeterClient({ baseUrl: app.baseUrl, apiKey: revoked.key, token: f.token });
    expect(await goodToken.usage.record(usage('good-token'))).toMatchObject({ status: 'charged' });
  });

  it('login stores the JWT in the client for the calls that follow', async () => {
    const client = createMeterClient({ baseUrl: app.baseUrl });
    await app.api.post('/api/auth/register', {
      email: 'login@example.com',
      password: 'password-1',
      name: 'L',
    });
    await client.auth.login({ email: 'login@example.com', password: 'password-1' });
    expect((await client.auth.me()).developer.email).toBe('login@example.com');
  });
});
