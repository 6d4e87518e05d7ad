import { createServer } from 'node:http';
import { createFetchHandler, createMeter } from '@meter/core';
import { listenOn, runHttpAdapterConformance } from '@meter/core/testing';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import { fetchBridge } from '../support/fetch-bridge.js';

runHttpAdapterConformance({
  name: 'fetch handler (Request -> Response)',
  createMeter: async ({ clock }) =>
    createMeter({ store: await openStore('sqlite::memory:'), provider: simulatedProvider(), clock }),
  // A host that read the body (request.json()) leaves no bytes to check: refused.
  bodyParserHost: 'refuses',
  async listen(handler, { parseJsonFirst }) {
    const meter = createFetchHandler(handler);
    const server = createServer(
      fetchBridge(async (request, context) => {
        const parsed =
          parseJsonFirst && request.method === 'POST' ? await request.json().catch(() => null) : null;
        const { pathname } = new URL(request.url);
        const response =
          (await meter(request, context)) ??
          (pathname === '/host/ping' ? Response.json({ host: 'ping' }) : null) ??
          (pathname === '/host/echo' ? Response.json(parsed) : new Response('Not Found', { status: 404 }));
        response.headers.set('x-host-middleware', 'seen');
        return response;
      }),
    );
    return listenOn(server.listen(0, '127.0.0.1'));
  },
});
