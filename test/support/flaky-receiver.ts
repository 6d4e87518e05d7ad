import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  deliveryId: string;
  rawBody: string;
  timestamp: string;
  signature: string;
}

/**
 * A receiver whose answer per request is decided by `answer` (a status code, or 'hang' to
 * never answer). It records every request, and accepts (de-duplicating by delivery id) the
 * ones it answers 2xx.
 */
export async function startFlakyReceiver(answer: (hitNumber: number) => number | 'hang' | 'redirect') {
  const hits: Hit[] = [];
  const accepted = new Map<string, string>();
  const hanging: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit: Hit = {
        deliveryId: String(req.headers['x-meter-delivery']),
        rawBody: Buffer.concat(chunks).toString('utf8'),
        timestamp: String(req.headers['x-meter-timestamp']),
        signature: String(req.headers['x-meter-signature']),
      };
      hits.push(hit);
      const decision = answer(hits.length);
      if (decision === 'hang') {
        hanging.push(res);
        return;
      }
      if (decision === 'redirect') {
        res.writeHead(302, { location: `${url}/elsewhere` }).end();
        return;
      }
      if (decision >= 200 && decision < 300 && !accepted.has(hit.deliveryId))
        accepted.set(hit.deliveryId, hit.rawBody);
      res.writeHead(decision).end(decision < 300 ? 'accepted' : 'nope');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    hits,
    accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
