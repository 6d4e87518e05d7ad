import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMeterClient, MeterApiError, MeterNetworkError, MeterTimeoutError } from '@meter/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, setupFixture, startApp, type TestApp } from '../../../../test/support/harness.js';
import { freePort } from '../../../../test/support/spawn-process.js';

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err as Error,
  );

describe('API errors: any non-2xx answer, with its status and parsed body', () => {
  let app: TestApp;
  let f: Fixture;
  beforeAll(async () => {
    app = await startApp();
    f = await setupFixture(app.api);
  });
  afterAll(() => app?.close());

  it('400 carries the validation issues', async () => {
    const client = createMeterClient({ baseUrl: app.baseUrl, token: f.token });
    const err = await caught(
      client.usage.record({ service: 'words', customer: 'acme', metricKey: 'words', quantity: -1 }),
    );
    expect(err).toBeInstanceOf(MeterApiError);
    expect(err).not.toBeInstanceOf(MeterNetworkError);
    const apiErr = err as MeterApiError;
    expect(apiErr.status).toBe(400);
    expect(apiErr.code).toBe('validation_error');
    expect(apiErr.body).toMatchObject({
      error: { code: 'validation_error', details: { issues: expect.any(Array) } },
    });
    expect(apiErr.details).toEqual({
      issues: [{ path: 'quantity', message: 'quantity must be a positive number' }],
    });
    expect(apiErr.message).toMatch(/POST \/api\/usage-events answered 400/);
    expect(apiErr.idempotencyKey).toEqual(expect.any(String));
  });

  it('404, 409 and 401 likewise', async () => {
    const client = createMeterClient({ baseUrl: app.baseUrl, token: f.token });
    await expect(client.customers.get('cus_nope')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(client.customers.create({ externalId: 'acme' })).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
    });
    const anonymous = createMeterClient({ baseUrl: app.baseUrl });
    await expect(
      anonymous.auth.login({ email: 'x@example.com', password: 'wrong-password' }),
    ).rejects.toMatchObject({
      status: 401,
      code: 'invalid_credentials',
    });
  });

  it('a non-JSON error answer (a proxy page) keeps its text as the body', async () => {
    const { url, server } = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    });
    const err = (await caught(createMeterClient({ baseUrl: url }).health())) as MeterApiError;
    expect(err).toMatchObject({ status: 502, body: '<h1>Bad gateway</h1>', code: undefined });
    server.close();
  });
  it('a redirect is not followed (credentials stay with the API), it is an API error', async () => {
    const { url, server } = await serve((_req, res) => {
      res.writeHead(302, { location: 'http://elsewhere.example/' }).end();
    });
    const client = createMeterClient({ baseUrl: url, token: 'a-token' });
    await expect(client.customers.list()).rejects.toMatchObject({ name: 'MeterApiError', status: 302 });
    server.close();
  });
});

describe('network errors: no answer, so no status', () => {
  it('a refused connection', async () => {
    const client = createMeterClient({ baseUrl: `http://127.0.0.1:${await freePort()}` });
    const err = await caught(client.customers.list());
    expect(err).toBeInstanceOf(MeterNetworkError);
    expect(err).not.toBeInstanceOf(MeterApiError);
    expect('status' in err).toBe(false);
    expect(err.message).toMatch(/did not answer \(ECONNREFUSED\)/);
    expect(err.cause).toBeInstanceOf(Error);
  });

  it('a timeout is a MeterTimeoutError, a kind of network error', async () => {
    const { url, server } = await serve(() => {});
    const started = Date.now();
    const err = await caught(createMeterClient({ baseUrl: url, timeoutMs: 150 }).health());
    expect(err).toBeInstanceOf(MeterTimeoutError);
    expect(err).toBeInstanceOf(MeterNetworkError);
    expect(err).toMatchObject({ timeout: true, timeoutMs: 150 });
    expect(Date.now() - started).toBeLessThan(2000);
    server.closeAllConnections();
    server.close();
  });

  it('a 2xx body that is not JSON is a runtime failure, not an API answer', async () => {
    const { url, server } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not the API</html>');
    });
    const err = await caught(createMeterClient({ baseUrl: url }).health());
    expect(err).toBeInstanceOf(MeterNetworkError);
    expect(err.message).toMatch(/not JSON/);
    server.close();
  });

  it("the caller's AbortSignal stops a call, marked aborted", async () => {
    const { url, server } = await serve(() => {});
    const client = createMeterClient({ baseUrl: url });
    const call = client.usage.record(
      { service: 's', customer: 'c', metricKey: 'm', quantity: 1 },
      { signal: AbortSignal.timeout(50) },
    );
    await expect(call).rejects.toMatchObject({ name: 'MeterNetworkError', aborted: true, timeout: false });
    server.closeAllConnections();
    server.close();
  });
});

describe('createMeterClient options', () => {
  it('refuses a base URL that ends in /api or is not an http(s) URL, and empty credentials', () => {
    expect(() => createMeterClient({ baseUrl: 'http://localhost:3000/api' })).toThrow(/without \/api/);
    expect(() => createMeterClient({ baseUrl: 'localhost:3000' })).toThrow(TypeError);
    expect(() => createMeterClient({ baseUrl: 'http://localhost:3000', apiKey: '' })).toThrow(
      /apiKey is empty/,
    );
    expect(() => createMeterClient({ baseUrl: 'http://x', timeoutMs: 0 })).toThrow(RangeError);
  });

  it('uses the fetch it is given, and keeps a path prefix of the base URL', async () => {
    const urls: string[] = [];
    const client = createMeterClient({
      baseUrl: 'http://meter.internal/billing/',
      fetch: async (input) => {
        urls.push(String(input));
        return Response.json([{ id: 'cus_1' }], { headers: { 'x-next-cursor': 'cus_1' } });
      },
    });
    expect(await client.customers.list({ limit: 1, cursor: null })).toEqual({
      items: [{ id: 'cus_1' }],
      nextCursor: 'cus_1',
    });
    expect(urls).toEqual(['http://meter.internal/billing/api/customers?limit=1']);
  });
});
