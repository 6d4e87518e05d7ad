import { createRpcClient } from '@meter/provider-live';
import { createApiClient } from './api-client.js';
import { createAutoPayer } from './auto-payer.js';
import { AutoPayerConfigError, loadAutoPayerConfig } from './config.js';
import { openPaymentState } from './state.js';

/** `npm run auto-payer`: the customer of the hosted demo. Settings: docs/live-mode.md. */

const log = (message: string) => console.log(`${new Date().toISOString()} auto-payer: ${message}`);

async function main(): Promise<void> {
  const config = loadAutoPayerConfig(process.env);
  const state = openPaymentState(config.stateFile);
  const autoPayer = createAutoPayer({
    api: createApiClient({ baseUrl: config.apiUrl, email: config.email, password: config.password, log }),
    payer: createRpcClient({ url: config.payerRpcUrl, role: 'payer node', timeoutMs: 15_000 }),
    state,
    maxPayment: config.maxPayment,
    pollMs: config.pollMs,
    log,
  });
  log(
    `started: API ${config.apiUrl} as ${config.email}, payer node ${config.payerRpcUrl}, ` +
      `polling every ${config.pollMs} ms, at most ${config.maxPaymentCkb} CKB per payment, state in ${config.stateFile}`,
  );
  const stop = new AbortController();
  const shutdown = () => {
    log('stopping');
    stop.abort();
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await autoPayer.run(stop.signal);
}

main().catch((err: unknown) => {
  console.error(
    err instanceof AutoPayerConfigError ? err.message : `auto-payer: ${(err as Error).message ?? err}`,
  );
  process.exit(1);
});
