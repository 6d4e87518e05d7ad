import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createWebhookReceiver, type FileEventStore, type MemoryEventStore } from '@meter/client';
import { handleCount, type MeteringTarget } from './count.js';

export interface DemoServiceOptions extends MeteringTarget {
  /** The metered service's webhook secret. */
  webhookSecret: string;
  /** Where accepted webhook events are recorded before the receiver answers 200. */
  events: FileEventStore | MemoryEventStore;
}

const BODY_LIMIT = 1024 * 1024;

/**
 * The demo metered service, as a node:http listener:
 *   POST /count     {customer, text} -> the word count, only once the usage is charged (402 if not)
 *   POST /webhooks  usage.charged deliveries, checked by the reference receiver
 *   GET  /webhooks  the accepted deliveries, newest first (?limit=)
 */
export function createDemoService(options: DemoServiceOptions): RequestListener {
  const log = options.log ?? ((line: string) => console.log(line));
  const receiver = createWebhookReceiver({
    secret: options.webhookSecret,
    store: options.events,
    onEvent(event, { deliveryId }) {
      if (event.type === 'usage.charged') {
        log(
          `webhook ${deliveryId}: ${event.amount} ${event.asset} charged to ${event.customer} (${event.usageEventId})`,
        );
      }
    },
  });

  async function route(req: IncomingMessage, url: URL): Promise<{ status: number; body: unknown }> {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (req.method === 'POST' && path === '/count') {
      const parsed = parseJson(await readBody(req));
      if (!parsed.ok)
        return { status: 400, body: { error: 'invalid_request', message: 'The body is not JSON' } };
      const key = req.headers['idempotency-key'];
      return handleCount(parsed.value, options, typeof key === 'string' && key !== '' ? key : undefined);
    }
    if (req.method === 'POST' && path === '/webhooks') {
      // The raw bytes go to the receiver: the signature covers them exactly.
      return receiver.handle({ rawBody: await readBody(req), headers: req.headers });
    }
    if (req.method === 'GET' && path === '/webhooks') {
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const events = await options.events.list();
      return { status: 200, body: events.reverse().slice(0, limit > 0 ? limit : 50) };
    }
    if (req.method === 'GET' && path === '/health') return { status: 200, body: { status: 'ok' } };
    if (req.method === 'GET' && path === '/') {
      return {
        status: 200,
        body: {
          service: options.serviceSlug,
          endpoints: ['POST /count {"customer","text"}', 'POST /webhooks', 'GET /webhooks'],
        },
      };
    }
    return { status: 404, body: { error: 'not_found' } };
  }

  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    route(req, url).then(
      (answer) => send(res, answer.status, answer.body),
      (err: unknown) => {
        const tooLarge = err instanceof BodyTooLarge;
        if (!tooLarge) console.error('demo service:', err);
        send(res, tooLarge ? 413 : 500, { error: tooLarge ? 'payload_too_large' : 'internal_error' });
      },
    );
  };
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is drained unread, so the 413 can still be answered.
      if (size > BODY_LIMIT) reject(new BodyTooLarge());
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8') || '{}') };
  } catch {
    return { ok: false };
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
