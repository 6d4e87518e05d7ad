import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookReceiver, type MemoryEventStore, memoryEventStore } from '@meter/client';

/** The reference receiver on a real socket, keeping what it accepts in memory. */
export async function startReceiver(secret: string): Promise<{
  url: string;
  store: MemoryEventStore;
  close(): Promise<void>;
}> {
  const store = memoryEventStore();
  const receiver = createWebhookReceiver({ secret, store });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void receiver.handle({ rawBody: Buffer.concat(chunks), headers: req.headers }).then((answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    store,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Polls until `probe` returns something other than undefined. */
export async function until<T>(probe: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

let counter = 0;
export const uniqueEmail = (name: string) => `${name}-${Date.now()}-${counter++}@example.com`;
