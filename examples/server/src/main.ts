import { randomBytes } from 'node:crypto';
import { meterExpress } from '@meter/adapter-express';
import { ConfigError, consoleLogger, createMeter, createMeterHandler, loadConfig } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import express from 'express';
import { demoReceiver } from './demo-receiver.js';
import { DEMO, seedDemo } from './seed.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  if (config.CHANNEL_PROVIDER !== 'simulated') {
    throw new ConfigError('This demo server runs in simulated mode only (CHANNEL_PROVIDER=simulated)');
  }
  const store = await openStore(config.DATABASE_URL).catch((err: unknown) => {
    throw new ConfigError(
      `Cannot open the database at ${redact(config.DATABASE_URL)}: ${(err as Error).message}`,
    );
  });
  const meter = createMeter({
    store,
    provider: simulatedProvider({ invoiceExpirySecs: config.CHANNEL_INVOICE_EXPIRY_SECS }),
    logger: consoleLogger,
    webhooks: { timeoutMs: config.WEBHOOK_TIMEOUT_MS },
  });
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
    await seedDemo(meter, `${base}/demo/webhooks`);
    const dev = await meter.authenticate({ email: DEMO.email, password: DEMO.password });
    demoSecret = (await meter.getServiceBySlug(dev.id, DEMO.serviceSlug)).webhookSecret;
    console.log(
      [
        `Meter demo API listening on ${base} (simulated mode, database ${redact(config.DATABASE_URL)})`,
        `  Demo login:    ${DEMO.email} / ${DEMO.password}`,
        `  Demo service:  ${DEMO.serviceSlug} (metric "words", 0.01 CKB per word), customer "${DEMO.customerExternalId}"`,
        `  Webhooks land: ${base}/demo/webhooks`,
        config.JWT_SECRET
          ? ''
          : '  JWT_SECRET is not set: a random one is used, so tokens end when the server stops.',
      ]
        .filter(Boolean)
        .join('\n'),
    );
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

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
