import { ConfigError, consoleLogger, createMeter, loadConfig } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';

/**
 * The webhook dispatcher as its own process (`npm run webhooks`): it polls the outbox in
 * DATABASE_URL and delivers due deliveries. Run API processes with WEBHOOK_DISPATCHER=off
 * to leave all sending to it, or run both: claims keep one attempt to one dispatcher.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const store = await openStore(config.DATABASE_URL).catch((err: unknown) => {
    throw new ConfigError(`Cannot open the database: ${(err as Error).message}`);
  });
  const meter = createMeter({
    store,
    // Delivering webhooks never touches the payment provider.
    provider: simulatedProvider(),
    logger: consoleLogger,
    webhooks: {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      // Like the demo server: its receiver is on localhost unless WEBHOOK_ALLOW_PRIVATE_NETWORKS says otherwise.
      allowPrivateNetworks: (process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? 'true') === 'true',
      pollIntervalMs: config.WEBHOOK_POLL_MS,
      ...(config.WEBHOOK_LEASE_MS ? { leaseMs: config.WEBHOOK_LEASE_MS } : {}),
    },
  });
  meter.webhooks.start();
  console.log(`Webhook dispatcher polling every ${config.WEBHOOK_POLL_MS} ms`);
  const stop = () => void meter.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // The poller's timer is unref'd; keep the process alive.
  setInterval(() => {}, 1 << 30);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
