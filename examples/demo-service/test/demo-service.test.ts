import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMeterClient, type FileEventStore, fileEventStore } from '@meter/client';
import type { MeterHttpHandler, MeterRequest } from '@meter/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Fixture, fund, setupFixture, startApp, type TestApp } from '../../../test/support/harness.js';
import { freePort } from '../../../test/support/spawn-process.js';
import { createDemoService } from '../src/service.js';

const TEXT = 'the quick brown fox jumps over the lazy dog again'; // 10 words: 0.1 CKB

interface Stack {
  app: TestApp;
  f: Fixture;
  url: string;
  events: FileEventStore;
  count(body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

/** The real API, and the demo service in front of it with the webhook URL pointing at it. */
async function startStack(
  options: { apiUrl?: string; wrapHandler?: NonNullable<Parameters<typeof startApp>[0]>['wrapHandler'] } = {},
) {
  const app = await startApp(options.wrapHandler ? { wrapHandler: options.wrapHandler } : {});
  const f = await setupFixture(app.api, { price: '0.01' });
  const events = await fileEventStore(join(mkdtempSync(join(tmpdir(), 'demo-service-')), 'events.jsonl'));
  const client = createMeterClient({
    baseUrl: options.apiUrl ?? app.baseUrl,
    token: f.token,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    timeoutMs: 2000,
  });
  const server: Server = createServer(
    createDemoService({
      client,
      serviceSlug: f.slug,
      metricKey: 'words',
      webhookSecret: f.webhookSecret,
      events,
      log: () => {},
    }),
  ).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await app.api.put(`/api/services/${f.serviceId}`, { webhookUrl: `${url}/webhooks` }, f.token);
  const stack: Stack = {
    app,
    f,
    url,
    events,
    async count(body, headers = {}) {
      const res = await fetch(`${url}/count`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
  };
  stacks.push({ stack, server });
  return stack;
}

const stacks: { stack: Stack; server: Server }[] = [];
afterEach(async () => {
  for (const { stack, server } of stacks.splice(0)) {
    await stack.app.close();
    server.closeAllConnections();
    server.close();
    await stack.events.close();
  }
});

async function usageEvents(s: Stack) {
  return (await s.app.api.get('/api/usage-events?limit=1000', s.f.token)).body as {
    status: string;
    amount: string;
    quantity: number;
    idempotencyKey: string;
  }[];
}

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the demo service', () => {
  it('answers 402 with the amounts and a hint, and no result, until the balance is funded', async () => {
    const s = await startStack();
    const refused = await s.count({ customer: 'acme', text: TEXT });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      error: 'insufficient_balance',
      required: '0.1',
      available: '0',
      asset: 'CKB',
      hint: expect.stringMatching(/^Fund the balance/),
    });
    expect(refused.body).not.toHaveProperty('words');

    await fund(s.app.api, s.f.token, s.f.customerId, '0.25');
    const first = await s.count({ customer: 'acme', text: TEXT });
    expect(first).toMatchObject({
      status: 200,
      body: { words: 10, charged: { amount: '0.1', balanceRemaining: '0.15', replay: false } },
    });
    expect((await s.count({ customer: 'acme', text: TEXT })).body.charged.balanceRemaining).toBe('0.05');
    const out = await s.count({ customer: 'acme', text: TEXT });
    expect(out).toMatchObject({ status: 402, body: { required: '0.1', available: '0.05' } });
    expect((await usageEvents(s)).map((e) => e.status)).toEqual([
      'insufficient_balance',
      'charged',
      'charged',
      'insufficient_balance',
    ]);
  });

  it('never returns a result without a charge, with many concurrent requests', async () => {
    const s = await startStack();
    await fund(s.app.api, s.f.token, s.f.customerId, '1.37');
    const texts = Array.from({ length: 40 }, (_, i) => 'word '.repeat(1 + (i % 7)).trim());
    const answers = await Promise.all(texts.map((text) => s.count({ customer: 'acme', text })));
    const served = answers.filter((a) => a.status === 200);
    expect(served.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || a.status === 402)).toBe(true);
    for (const a of answers) expect('words' in a.body).toBe(a.status === 200);

    const charged = (await usageEvents(s)).filter((e) => e.status === 'charged');
    // Each result served is one charged event with the same key and word count, and vice versa.
    expect(charged.map((e) => `${e.idempotencyKey}:${e.quantity}`).sort()).toEqual(
      served.map((a) => `${a.body.idempotencyKey}:${a.body.words}`).sort(),
    );
    const spent = served.reduce((sum, a) => sum + a.body.words, 0);
    const balance = (await s.app.api.get(`/api/customers/${s.f.customerId}/balances/CKB`, s.f.token)).body;
    expect(balance.totalSpent).toBe(String(spent / 100));
  });

  it('serves a retried request (same Idempotency-Key) again without charging it twice', async () => {
    const s = await startStack();
    await fund(s.app.api, s.f.token, s.f.customerId, '1');
    const headers = { 'idempotency-key': 'doc-7' };
    const first = await s.count({ customer: 'acme', text: TEXT }, headers);
    const again = await s.count({ customer: 'acme', text: TEXT }, headers);
    expect(first.body).toMatchObject({ words: 10, idempotencyKey: 'doc-7', charged: { replay: false } });
    expect(again.body).toMatchObject({ words: 10, idempotencyKey: 'doc-7', charged: { replay: true } });
    expect((await usageEvents(s)).filter((e) => e.status === 'charged')).toHaveLength(1);
  });

  it('answers 503 without the result when the charge cannot be confirmed; the key makes the retry safe', async () => {
    // Every usage answer is lost after the charge committed, until `lost` is turned off.
    const lost = { on: true };
    const wrapHandler = (handler: MeterHttpHandler): MeterHttpHandler =>
      Object.assign(
        async (req: MeterRequest) => {
          const res = await handler(req);
          if (!lost.on || req.path !== '/api/usage-events' || req.method !== 'POST') return res;
          return { status: 503, headers: {}, body: '{"error":{"code":"store_unavailable","message":"x"}}' };
        },
        { bodyLimit: handler.bodyLimit, logger: handler.logger },
      );
    const s = await startStack({ wrapHandler });
    await fund(s.app.api, s.f.token, s.f.customerId, '1');
    const failed = await s.count({ customer: 'acme', text: TEXT });
    expect(failed).toMatchObject({ status: 503, body: { error: 'metering_unavailable' } });
    expect(failed.body).not.toHaveProperty('words');
    lost.on = false;
    const retried = await s.count(
      { customer: 'acme', text: TEXT },
      { 'idempotency-key': failed.body.idempotencyKey },
    );
    expect(retried.body).toMatchObject({ words: 10, charged: { replay: true, balanceRemaining: '0.9' } });
    expect((await usageEvents(s)).filter((e) => e.status === 'charged')).toHaveLength(1);
  });

  it('answers 503 without the result when the API is down', async () => {
    const s = await startStack({ apiUrl: `http://127.0.0.1:${await freePort()}` });
    const answer = await s.count({ customer: 'acme', text: TEXT });
    expect(answer).toMatchObject({ status: 503, body: { error: 'metering_unavailable' } });
    expect(answer.body).not.toHaveProperty('words');
  });

  it('passes on the API refusing the request (unknown customer) and refuses empty text itself', async () => {
    const s = await startStack();
    expect(await s.count({ customer: 'nobody', text: TEXT })).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
    expect(await s.count({ customer: 'acme', text: '   ' })).toMatchObject({ status: 400 });
    expect(await s.count({ text: TEXT })).toMatchObject({ status: 400 });
  });

  it('receives the usage.charged webhook, verified end to end, and shows it', async () => {
    const s = await startStack();
    await fund(s.app.api, s.f.token, s.f.customerId, '1');
    const served = await s.count({ customer: 'acme', text: TEXT });
    const received = await until(async () => {
      const list = (await (await fetch(`${s.url}/webhooks`)).json()) as any[];
      return list.length > 0 ? list : undefined;
    });
    expect(received[0].event).toMatchObject({
      type: 'usage.charged',
      usageEventId: served.body.charged.usageEventId,
      customer: 'acme',
      amount: '0.1',
    });
    const [delivery] = (await s.app.api.get('/api/webhook-deliveries', s.f.token)).body;
    expect(delivery).toMatchObject({ status: 'sent', attemptCount: 1 });
    expect(received[0].deliveryId).toBe(delivery.id);
  });

  it('answers 401 to a delivery with a bad signature or an old timestamp, and stores nothing', async () => {
    const s = await startStack();
    const body = JSON.stringify({ id: 'use_1', type: 'usage.charged', deliveryId: 'whd_1' });
    const post = (headers: Record<string, string>) =>
      fetch(`${s.url}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const { createHmac } = await import('node:crypto');
    const sign = (ts: number, secret = s.f.webhookSecret) =>
      createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
    const now = Date.now();
    const bad = await post({
      'x-meter-timestamp': String(now),
      'x-meter-signature': sign(now, 'whsec_wrong_secret_000000'),
    });
    expect(bad.status).toBe(401);
    const old = now - 6 * 60_000;
    expect((await post({ 'x-meter-timestamp': String(old), 'x-meter-signature': sign(old) })).status).toBe(
      401,
    );
    expect((await post({ 'x-meter-timestamp': String(now), 'x-meter-signature': sign(now) })).status).toBe(
      200,
    );
    expect((await s.events.list()).map((e) => e.deliveryId)).toEqual(['whd_1']);
  });
});
