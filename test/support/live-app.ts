import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { meterExpress } from '@meter/adapter-express';
import { type Clock, createMeter, createMeterHandler, type Meter } from '@meter/core';
import { liveProvider } from '@meter/provider-live';
import { openStore } from '@meter/store-knex';
import express from 'express';
import type { FakeNetwork } from '../../packages/provider-live/test/support/index.js';
import { type ApiClient, apiClient } from './harness.js';

export interface LiveTestApp {
  baseUrl: string;
  meter: Meter;
  api: ApiClient;
  /** API outage: stops accepting connections. */
  stop(): Promise<void>;
  /** Back on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The real stack in live mode (Express, handler, meter, SQLite) on the fake network's payee node. */
export async function startLiveApp(
  network: FakeNetwork,
  options: { jwtTtlSeconds?: number; timeoutMs?: number; clock?: Clock; payer?: boolean } = {},
): Promise<LiveTestApp> {
  const meter = createMeter({
    store: await openStore('sqlite::memory:'),
    provider: liveProvider({
      rpcUrl: network.payee.url,
      preflightRpcUrl: options.payer === false ? null : network.payer.url,
      timeoutMs: options.timeoutMs ?? 2000,
    }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const handler = createMeterHandler({
    meter,
    jwt: {
      secret: 'test-jwt-secret-that-is-long-enough-0123456789',
      ttlSeconds: options.jwtTtlSeconds ?? 3600,
    },
    explorerUrl: 'https://testnet.explorer.nervos.org',
    logger: { info() {}, warn() {}, error() {} },
  });
  const app = express();
  app.use(meterExpress(handler));
  let server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return {
    baseUrl,
    meter,
    api: apiClient(baseUrl),
    stop,
    async start() {
      if (running) return;
      server = app.listen(port, '127.0.0.1');
      await once(server, 'listening');
      running = true;
    },
    async close() {
      await stop();
      await meter.close();
    },
  };
}
