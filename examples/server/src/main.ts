import { randomBytes } from 'node:crypto';
import { meterExpress } from '@meter/adapter-express';
import {
  type ChannelProvider,
  ConfigError,
  consoleLogger,
  createMeter,
  createMeterHandler,
  loadConfig,
  type MeterConfig,
} from '@meter/core';
import { liveProvider } from '@meter/provider-live';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import express from 'express';
import { demoReceiver } from './demo-receiver.js';
import { DEMO, seedDemo } from './seed.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const provider = channelProvider(config);
  const store = await openStore(config.DATABASE_URL).catch((err: unknown) => {
    throw new ConfigError(
      `Cannot open the database at ${redact(config.DATABASE_URL)}: ${(err as Error).message}`,
    );
  });
  const meter = createMeter({
    store,
    provider,
    logger: consoleLogger,
    webhooks: {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      // The demo's receiver is on localhost, so the demo allows private addresses unless told otherwise.
      allowPrivateNetworks: (process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? 'true') === 'true',
      dispatchAfterCommit: config.WEBHOOK_DISPATCHER === 'inline',
      pollIntervalMs: config.WEBHOOK_POLL_MS,
      ...(config.WEBHOOK_LEASE_MS ? { leaseMs: config.WEBHOOK_LEASE_MS } : {}),
    },
  });
  // Retries and deliveries left behind by a stopped process; `off` leaves them to `npm run webhooks`.
  if (config.WEBHOOK_DISPATCHER === 'inline') meter.webhooks.start();
  const jwtSecret = config.JWT_SECRET ?? randomBytes(32).toString('hex');
  const handler = createMeterHandler({
    meter,
    jwt: { secret: jwtSecret, ttlSeconds: config.JWT_TTL_SECS },
    allowRegistration: config.ALLOW_REGISTRATION === 'true',
    explorerUrl: config.CHANNEL_EXPLORER_URL,
    logger: consoleLogger,
  });

  let demoSecret: string | undefined;
  const app = express();
  app.use(meterExpress(handler));
  app.use(demoReceiver(() => demoSecret));
  app.get('/', (_req, res) => {
    res
      .type('text/plain')
      .send(
        `Meter demo API is running.\nSee the README's tour; try GET /health and GET /api/channel/config.\n`,
      );
  });

  const server = app.listen(config.PORT, async () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const base = `http://localhost:${port}`;
    // `npm start` points the webhooks at the demo service; alone, the API receives them itself.
    const webhookUrl = process.env.DEMO_WEBHOOK_URL || `${base}/demo/webhooks`;
    await seedDemo(meter, webhookUrl);
    const dev = await meter.authenticate({ email: DEMO.email, password: DEMO.password });
    demoSecret = (await meter.getServiceBySlug(dev.id, DEMO.serviceSlug)).webhookSecret;
    console.log(
      [
        `Meter demo API listening on ${base} (${modeLine(config)}, database ${redact(config.DATABASE_URL)})`,
        `  Demo login:    ${DEMO.email} / ${DEMO.password}`,
        `  Demo service:  ${DEMO.serviceSlug} (metric "words", 0.01 CKB per word), customer "${DEMO.customerExternalId}"`,
        `  Webhooks land: ${webhookUrl}`,
        config.JWT_SECRET
          ? ''
          : '  JWT_SECRET is not set: a random one is used, so tokens end when the server stops.',
      ]
        .filter(Boolean)
        .join('\n'),
    );
    if (provider.diagnostics) void reportNodes(provider);
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    console.error(
      err.code === 'EADDRINUSE' ? `Port ${config.PORT} is in use; set PORT to another port.` : err.message,
    );
    process.exit(1);
  });

  const shutdown = () => {
    server.close();
    void meter.close().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

/** The provider CHANNEL_PROVIDER asks for; live mode talks to the payee node at CHANNEL_RPC_URL. */
function channelProvider(config: MeterConfig): ChannelProvider {
  if (config.CHANNEL_PROVIDER === 'simulated') {
    return simulatedProvider({ invoiceExpirySecs: config.CHANNEL_INVOICE_EXPIRY_SECS });
  }
  try {
    return liveProvider({
      rpcUrl: config.CHANNEL_RPC_URL!,
      preflightRpcUrl: config.CHANNEL_PREFLIGHT_RPC_URL ?? null,
      currency: config.CHANNEL_CURRENCY ?? 'Fibt',
      invoiceExpirySecs: config.CHANNEL_INVOICE_EXPIRY_SECS,
      explorerUrl: config.CHANNEL_EXPLORER_URL,
    });
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${(err as Error).message}`);
  }
}

function modeLine(config: MeterConfig): string {
  if (config.CHANNEL_PROVIDER === 'simulated') return 'simulated mode';
  return `live mode, payee node ${redact(config.CHANNEL_RPC_URL!)}`;
}

/** One look at the nodes after start: the server keeps running whatever it finds. */
async function reportNodes(provider: ChannelProvider): Promise<void> {
  const health = await provider.diagnostics!.health();
  const { payee } = health;
  console.log(
    payee.reachable && payee.node
      ? `  Payee node:    ${payee.node.nodeId ?? 'unknown id'}, ${payee.channels?.ready ?? 0} ChannelReady channel(s)`
      : `  Payee node:    not reachable (${payee.error?.message ?? 'unknown error'})`,
  );
  for (const warning of health.warnings) console.warn(`  Warning: ${warning}`);
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
