import {
  createMeterClient,
  DEFAULT_RETRY,
  type MeterApiError,
  MeterNetworkError,
  type RecordUsageParams,
} from '@meter/client';
import type { MeterHttpHandler, MeterRequest } from '@meter/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Fixture,
  fund,
  setupFixture,
  startApp,
  type TestApp,
} from '../../../../test/support/harness.js';
import { backoffDelay } from '../../src/api/retry.js';
import { type ProxyMode, startProxy } from './proxy.js';

const fast = { retries: 3, baseDelayMs: 5, maxDelayMs: 20 };
const params = (extra: Partial<RecordUsageParams> = {}): RecordUsageParams => ({
  service: 'words',
  customer: 'acme',
  metricKey: 'words',
  quantity: 3,
  ...extra,
});

/**
 * The real handler runs (and commits the charge); then the first `failures` answers to
 * POST /api/usage-events are replaced by `answer`. Every usage body's key is recorded.
 */
function afterCommit(state: { failures: number; keys: string[]; answer?: number }) {
  return (handler: MeterHttpHandler): MeterHttpHandler =>
    Object.assign(
      async (req: MeterRequest) => {
        const res = await handler(req);
        if (req.method !== 'POST' || req.path !== '/api/usage-events') return res;
        state.keys.push(JSON.parse(Buffer.from(req.body!).toString('utf8')).idempotencyKey);
        if (state.failures-- <= 0) return res;
        const status = state.answer ?? 503;
        const code = status === 503 ? 'store_unavailable' : 'internal_error';
        return {
          status,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify({ error: { code, message: 'failing on purpose, after the commit' } }),
        };
      },
      { bodyLimit: handler.bodyLimit, logger: handler.logger },
    );
}

describe('usage.record retries with the same idempotency key, and charges once', () => {
  let app: TestApp | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
    await app?.close();
  });

  async function setup(state?: { failures: number; keys: string[]; answer?: number }) {
    app = await startApp(state ? { wrapHandler: afterCommit(state) } : {});
    const f = await setupFixture(app.api, { price: '1' });
    await fund(app.api, f.token, f.customerId, '10');
    return f;
  }

  /** What the database says was charged: one charged event, one debit, the balance down by 3. */
  async function expectChargedOnce(f: Fixture, key: string) {
    const events = (await app!.api.get('/api/usage-events', f.token)).body;
    expect(events.filter((e: { status: string }) => e.status === 'charged')).toHaveLength(1);
    expect(events[0].idempotencyKey).toBe(key);
    const ledger = (await app!.api.get(`/api/ledger?customerId=${f.customerId}`, f.token)).body;
    expect(ledger.filter((l: { direction: string }) => l.direction === 'debit')).toHaveLength(1);
    const balance = (await app!.api.get(`/api/customers/${f.customerId}/balances/CKB`, f.token)).body;
    expect(balance).toMatchObject({ availableBalance: '7', totalSpent: '3' });
  }

  it('503 after the charge committed: retried with the same key, answered as a replay', async () => {
    const state = { failures: 2, keys: [] as string[] };
    const f = await setup(state);
    const client = createMeterClient({ baseUrl: app!.baseUrl, token: f.token, retry: fast });
    const result = await client.usage.record(params());
    expect(result).toMatchObject({ status: 'charged', idempotent: true, attempts: 3, balanceRemaining: '7' });
    expect(state.keys).toEqual([result.idempotencyKey, result.idempotencyKey, result.idempotencyKey]);
    await expectChargedOnce(f, result.idempotencyKey);
  });

  it('a caller-given key is the one sent on every attempt; 500 is retried too', async () => {
    const state = { failures: 1, keys: [] as string[], answer: 500 };
    const f = await setup(state);
    const client = createMeterClient({ baseUrl: app!.baseUrl, token: f.token, retry: fast });
    const result = await client.usage.record(params({ idempotencyKey: 'order-42' }));
    expect(result).toMatchObject({ status: 'charged', idempotencyKey: 'order-42', attempts: 2 });
    expect(state.keys).toEqual(['order-42', 'order-42']);
    await expectChargedOnce(f, 'order-42');
  });

  it.each<[string, ProxyMode]>([
    ['the connection drops after the server answered', 'drop'],
    ['the answer never arrives (timeout)', 'hold'],
  ])('%s: retried, charged once', async (_label, failure) => {
    const state = { failures: 0, keys: [] as string[] };
    const f = await setup(state);
    const proxy = await startProxy(app!.baseUrl, (n) => (n <= 2 ? failure : 'forward'));
    close = proxy.close;
    const client = createMeterClient({ baseUrl: proxy.url, token: f.token, timeoutMs: 500, retry: fast });
    const result = await client.usage.record(params());
    expect(result).toMatchObject({ status: 'charged', idempotent: true, attempts: 3 });
    expect(state.keys).toEqual(Array(3).fill(result.idempotencyKey));
    await expectChargedOnce(f, result.idempotencyKey);
  });

  it('a 4xx is never retried', async () => {
    const state = { failures: 0, keys: [] as string[] };
    const f = await setup(state);
    const client = createMeterClient({ baseUrl: app!.baseUrl, token: f.token, retry: fast });
    await client.usage.record(params({ idempotencyKey: 'k1' }));
    // The same key with another quantity: 409 idempotency_conflict, sent once.
    await expect(client.usage.record(params({ idempotencyKey: 'k1', quantity: 4 }))).rejects.toMatchObject({
      status: 409,
      code: 'idempotency_conflict',
    });
    await expect(client.usage.record(params({ metricKey: 'nope' }))).rejects.toMatchObject({ status: 404 });
    expect(state.keys).toHaveLength(3);
  });

  it('when every attempt fails, the error names the key; retrying later with it charges once', async () => {
    const state = { failures: 4, keys: [] as string[] };
    const f = await setup(state);
    const client = createMeterClient({ baseUrl: app!.baseUrl, token: f.token, retry: fast });
    const err = (await client.usage.record(params()).catch((e: unknown) => e)) as MeterApiError;
    expect(err).toMatchObject({ name: 'MeterApiError', status: 503, code: 'store_unavailable' });
    expect(state.keys).toHaveLength(4);
    expect(new Set(state.keys)).toEqual(new Set([err.idempotencyKey]));
    const later = await client.usage.record(params({ idempotencyKey: err.idempotencyKey! }));
    expect(later).toMatchObject({ status: 'charged', idempotent: true });
    await expectChargedOnce(f, err.idempotencyKey!);
  });

  it('a new operation gets a new key; retry: false sends once', async () => {
    const state = { failures: 0, keys: [] as string[] };
    const f = await setup(state);
    const client = createMeterClient({ baseUrl: app!.baseUrl, token: f.token, retry: fast });
    const a = await client.usage.record(params({ quantity: 1 }));
    const b = await client.usage.record(params({ quantity: 1 }));
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    expect(a.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect([a.status, b.status]).toEqual(['charged', 'charged']);
    expect(a).not.toHaveProperty('idempotent');

    state.failures = 1;
    await expect(client.usage.record(params({ quantity: 1 }), { retry: false })).rejects.toMatchObject({
      status: 503,
    });
    expect(state.keys).toHaveLength(3);
  });

  it('network failures with no server at all: retried, then a MeterNetworkError with the key', async () => {
    const proxy = await startProxy('http://127.0.0.1:9', () => 'forward');
    close = proxy.close;
    const client = createMeterClient({ baseUrl: proxy.url, retry: fast });
    const err = await client.usage.record(params()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeterNetworkError);
    expect((err as MeterNetworkError).idempotencyKey).toEqual(expect.any(String));
    expect(proxy.connections()).toBe(4);
  });

  it('backs off exponentially with jitter, capped', () => {
    const opts = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(opts, n, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(opts, n, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });
});
