import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signWebhook } from '@meter/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpawnedProcess, spawnTsServer } from '../../../test/support/spawn-process.js';

const dir = new URL('../', import.meta.url).pathname;
const root = new URL('../../../', import.meta.url).pathname;
const SECRET = 'whsec_receiver_example_0123456789';

const body = JSON.stringify({
  id: 'use_01JD0000000000000000000001',
  type: 'usage.charged',
  createdAt: '2026-11-21T08:59:23.613Z',
  usageEventId: 'use_01JD0000000000000000000001',
  customer: 'Zoë — 東京 🚀',
  service: 'word-counter',
  metricKey: 'words',
  quantity: 2.5,
  amount: '0.025',
  asset: 'CKB',
});

interface DeliveryOptions {
  /** The body signed; default the usage.charged body above. */
  signed?: string;
  /** The body sent; default the signed one. */
  rawBody?: string;
  timestamp?: number;
  deliveryId?: string;
}

/** A POST as Meter's dispatcher sends it, signed with the sender's own signWebhook. */
function signedRequest(url: string, options: DeliveryOptions = {}): Request {
  const timestamp = options.timestamp ?? Date.now();
  const signed = options.signed ?? body;
  return new Request(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'meter-webhooks/1',
      'X-Meter-Event': 'usage.charged',
      'X-Meter-Timestamp': String(timestamp),
      'X-Meter-Signature': signWebhook(SECRET, timestamp, signed),
      'X-Meter-Delivery': options.deliveryId ?? 'whd_01JD0000000000000000000001',
    },
    body: Buffer.from(options.rawBody ?? signed, 'utf8'),
  });
}

async function answer(res: Response) {
  return { status: res.status, body: await res.json() };
}

const deliver = async (url: string, options: DeliveryOptions = {}) =>
  answer(await fetch(signedRequest(url, options)));

describe.each(['express', 'koa', 'hapi'])('examples/webhook-receivers: %s', (name) => {
  const entry = `src/${name}-receiver.ts`;
  const eventsFile = join(mkdtempSync(join(tmpdir(), `meter-${name}-`)), 'events.jsonl');
  const env = { METER_WEBHOOK_SECRET: SECRET, WEBHOOK_EVENTS_FILE: eventsFile };
  let app: SpawnedProcess;
  const url = () => app.baseUrl;
  beforeAll(async () => {
    const script = JSON.parse(readFileSync(`${dir}package.json`, 'utf8')).scripts[name];
    expect(script).toBe(`node --conditions=source --import tsx ${entry}`);
    app = await spawnTsServer(entry, { cwd: dir, env });
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('accepts a signed delivery once: 200, then 200 as a duplicate, processed once', async () => {
    expect(url()).toMatch(/\/webhooks\/meter$/);
    expect(await deliver(url())).toEqual({ status: 200, body: { received: true, duplicate: false } });
    // Meter's retry: same delivery id and bytes, fresh timestamp and signature.
    expect(await deliver(url(), { timestamp: Date.now() - 1000 })).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });
    const lines = readFileSync(eventsFile, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([
      { deliveryId: 'whd_01JD0000000000000000000001', event: { customer: 'Zoë — 東京 🚀' } },
    ]);
    expect(app.output().match(/accepted usage\.charged/g)).toHaveLength(1);
  });

  it('answers 401 to a tampered body', async () => {
    const tampered = body.replace('"0.025"', '"0.001"');
    expect(await deliver(url(), { rawBody: tampered, deliveryId: 'whd_tampered' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_signature' },
    });
  });

  it('answers 401 to a stale timestamp', async () => {
    const stale = Date.now() - 6 * 60 * 1000;
    expect(await deliver(url(), { timestamp: stale, deliveryId: 'whd_stale' })).toMatchObject({
      status: 401,
      body: { error: 'timestamp_out_of_tolerance' },
    });
    expect(readFileSync(eventsFile, 'utf8').trimEnd().split('\n')).toHaveLength(1);
  });

  it('still knows the delivery after a restart', async () => {
    await app.stop();
    app = await spawnTsServer(entry, { cwd: dir, env });
    expect(await deliver(url())).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(app.output()).not.toMatch(/accepted usage\.charged/);
  }, 60_000);
});

describe('examples/webhook-receivers: fetch route', () => {
  beforeAll(() => {
    process.env.METER_WEBHOOK_SECRET = SECRET;
  });

  it('answers 200 to a signed delivery, 401 to a tampered or stale one, 400 to a body that is not JSON', async () => {
    const { POST } = await import('../src/fetch-route.js');
    const url = 'http://receiver.test/webhooks/meter';
    expect(await answer(await POST(signedRequest(url)))).toEqual({ status: 200, body: { received: true } });
    expect(
      await answer(await POST(signedRequest(url, { rawBody: body.replace('CKB', 'BTC') }))),
    ).toMatchObject({
      status: 401,
      body: { error: 'invalid_signature' },
    });
    const stale = signedRequest(url, { timestamp: Date.now() - 6 * 60 * 1000 });
    expect(await answer(await POST(stale))).toMatchObject({
      status: 401,
      body: { error: 'timestamp_out_of_tolerance' },
    });
    expect(await answer(await POST(signedRequest(url, { signed: 'not json' })))).toMatchObject({
      status: 400,
      body: { error: 'invalid_body' },
    });
  });
});

describe('docs/webhooks.md', () => {
  it('shows each receiver example verbatim', () => {
    const doc = readFileSync(`${root}docs/webhooks.md`, 'utf8');
    const shown = [...doc.matchAll(/<!-- snippet: (\S+) -->\n\n?```ts\n([\s\S]*?)```/g)];
    for (const [, file, code] of shown) expect(code, file).toBe(readFileSync(`${root}${file}`, 'utf8'));
    expect(shown.map((m) => m[1]).sort()).toEqual(
      ['express-receiver', 'fetch-route', 'hapi-receiver', 'koa-receiver'].map(
        (n) => `examples/webhook-receivers/src/${n}.ts`,
      ),
    );
  });
});
