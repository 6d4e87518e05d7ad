import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMeterClient,
  fileEventStore,
  MeterApiError,
  type MeterClient,
  MeterNetworkError,
} from '@meter/client';
import { type DemoConfig, DemoConfigError, loadDemoConfig } from './config.js';
import { createDemoService } from './service.js';

/** Logs in when the config has a login, and finds the webhook secret when it is not given. */
async function connect(config: DemoConfig, client: MeterClient): Promise<{ webhookSecret: string }> {
  if (config.login) await client.auth.login(config.login);
  if (config.webhookSecret) return { webhookSecret: config.webhookSecret };
  // A dashboard token can read the service, secret included (it never leaves this server).
  for (let cursor: string | null = null; ; ) {
    const page = await client.services.list({ limit: 100, cursor });
    const service = page.items.find((s) => s.slug === config.serviceSlug);
    if (service) return { webhookSecret: service.webhookSecret };
    cursor = page.nextCursor;
    if (!cursor) throw new DemoConfigError(`The API has no service "${config.serviceSlug}" (SERVICE_SLUG)`);
  }
}

async function main(): Promise<void> {
  const config = loadDemoConfig(process.env);
  const client = createMeterClient({ baseUrl: config.apiUrl, apiKey: config.apiKey });
  const { webhookSecret } = await connect(config, client).catch((err: unknown) => {
    if (err instanceof MeterNetworkError) {
      throw new DemoConfigError(`The API at ${config.apiUrl} cannot be reached (API_URL): ${err.message}`);
    }
    if (err instanceof MeterApiError) {
      throw new DemoConfigError(`The API refused the demo service's credentials: ${err.message}`);
    }
    throw err;
  });
  const events = await fileEventStore(config.eventsFile);
  const login = config.login;
  const listener = createDemoService({
    client,
    serviceSlug: config.serviceSlug,
    metricKey: config.metricKey,
    webhookSecret,
    events,
    // Usage sent with the JWT needs a new one when it expires; an API key does not expire.
    ...(login && !config.apiKey
      ? {
          reauthenticate: () =>
            client.auth.login(login).then(
              () => true,
              () => false,
            ),
        }
      : {}),
  });
  const server = createServer(listener);
  server.on('error', (err: NodeJS.ErrnoException) => {
    console.error(
      err.code === 'EADDRINUSE'
        ? `Port ${config.port} is in use; set DEMO_SERVICE_PORT to another port.`
        : err.message,
    );
    process.exit(1);
  });
  server.listen(config.port, () => {
    const base = `http://localhost:${(server.address() as AddressInfo).port}`;
    console.log(
      [
        `Demo service listening on ${base} (service "${config.serviceSlug}", API ${config.apiUrl}, ` +
          `usage sent with ${config.apiKey ? 'an API key' : 'a dashboard token'})`,
        `  Count words:   curl -s ${base}/count -H 'content-type: application/json' -d '{"customer":"acme","text":"hello metered world"}'`,
        `  Webhooks:      POST ${base}/webhooks (received: GET ${base}/webhooks, kept in ${events.path})`,
      ].join('\n'),
    );
  });
  const shutdown = () => {
    server.close();
    server.closeAllConnections();
    void events.close().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  console.error(err instanceof DemoConfigError ? err.message : err);
  process.exit(1);
});
