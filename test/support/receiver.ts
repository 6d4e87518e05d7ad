import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingMessage['headers'];
  rawBody: string;
  /** Checked here with node's HMAC directly, independent of the library's verify code. */
  signatureValid: boolean;
}

/** A webhook receiver on a real socket; answers with `status()` (200 by default). */
export async function startReceiver(secret: () => string, status: () => number = () => 200) {
  const received: ReceivedDelivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const ts = String(req.headers['x-meter-timestamp']);
      const expected = createHmac('sha256', secret()).update(`${ts}.${rawBody}`).digest('hex');
      received.push({
        headers: req.headers,
        rawBody,
        signatureValid: expected === req.headers['x-meter-signature'],
      });
      res.statusCode = status();
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
