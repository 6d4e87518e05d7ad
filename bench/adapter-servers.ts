import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Hapi from '@hapi/hapi';
import { meterExpress } from '@meter/adapter-express';
import { meterHapi } from '@meter/adapter-hapi';
import { meterKoa } from '@meter/adapter-koa';
import { createFetchHandler, createMeter, createMeterHandler, type MeterHttpHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import express from 'express';
import Koa from 'koa';
import { fetchBridge } from '../test/support/fetch-bridge.js';

/**
 * One framework's pair of servers for bench/adapter-overhead.ts, in this process: the bare
 * framework answering GET /api/channel/config with the same JSON and headers as the meter,
 * and the same framework with the meter mounted by its adapter. Prints their URLs as JSON.
 */

const PATH = '/api/channel/config';
const CONFIG = { provider: 'simulated', currency: 'CKB', invoiceExpirySecs: 3600, explorerUrl: null };

const listening = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const frameworks: Record<string, { bare(): Promise<string>; adapter(h: MeterHttpHandler): Promise<string> }> =
  {
    express: {
      bare: () => {
        const app = express();
        app.get(PATH, (_req, res) => {
          res.set('cache-control', 'no-store').json(CONFIG);
        });
        return listening(createServer(app));
      },
      adapter: (handler) => {
        const app = express();
        app.use(meterExpress(handler));
        return listening(createServer(app));
      },
    },
    koa: {
      bare: () => {
        const app = new Koa();
        app.use(async (ctx) => {
          if (ctx.path !== PATH) return;
          ctx.set('cache-control', 'no-store');
          ctx.body = CONFIG;
        });
        return listening(createServer(app.callback()));
      },
      adapter: (handler) => {
        const app = new Koa();
        app.use(meterKoa(handler));
        return listening(createServer(app.callback()));
      },
    },
    hapi: {
      bare: async () => {
        const server = Hapi.server({ host: '127.0.0.1', port: 0 });
        server.route({
          method: 'GET',
          path: PATH,
          handler: (_request, h) => h.response(CONFIG).header('cache-control', 'no-store'),
        });
        await server.start();
        return server.info.uri;
      },
      adapter: async (handler) => {
        const server = Hapi.server({ host: '127.0.0.1', port: 0 });
        await server.register(meterHapi(handler));
        await server.start();
        return server.info.uri;
      },
    },
    fetch: {
      bare: () =>
        listening(
          createServer(
            fetchBridge(async (request) =>
              new URL(request.url).pathname === PATH
                ? Response.json(CONFIG, { headers: { 'cache-control': 'no-store' } })
                : new Response(null, { status: 404 }),
            ),
          ),
        ),
      adapter: (handler) => {
        const meterFetch = createFetchHandler(handler, {
          fallback: () => new Response(null, { status: 404 }),
        });
        return listening(createServer(fetchBridge(meterFetch)));
      },
    },
  };

const framework = frameworks[process.argv[2] ?? ''];
if (!framework) throw new Error(`usage: adapter-servers.ts ${Object.keys(frameworks).join('|')}`);
const meter = createMeter({ store: await openStore('sqlite::memory:'), provider: simulatedProvider() });
const handler = createMeterHandler({ meter, jwt: { secret: 'bench-jwt-secret-0123456789abcdef0123456789' } });
// The parent asks for this process's CPU time around each run: CPU per request is the measure a busy machine disturbs least.
process.on('message', () => process.send?.(process.cpuUsage()));
console.log(JSON.stringify({ bare: await framework.bare(), adapter: await framework.adapter(handler) }));
