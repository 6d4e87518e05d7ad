import { runProviderConformance } from '@meter/core/testing';
import { openStore } from '@meter/store-knex';
import { liveProvider } from '../src/index.js';
import { payFromPayer, rpc, startFakeNetwork } from './support/index.js';

for (const dialect of ['v0.8', 'v0.7'] as const) {
  runProviderConformance({
    settlement: { expire: true, cancel: true, outages: true },
    name: `liveProvider on fake nodes (${dialect} wire spellings)`,
    async setup() {
      const network = await startFakeNetwork({ dialect });
      const store = await openStore('sqlite::memory:');
      const { payee } = network;
      return {
        provider: liveProvider({ rpcUrl: payee.url, preflightRpcUrl: network.payer.url, timeoutMs: 1000 }),
        store,
        pay: async (request) => {
          await payFromPayer(network, request.paymentUri);
        },
        expire: async (request) => payee.expireInvoice(request.paymentHash!),
        cancel: async (request) => {
          await rpc(payee.url, 'cancel_invoice', { payment_hash: request.paymentHash });
        },
        async outage(kind) {
          if (kind === 'down') await payee.stop();
          if (kind === 'slow') payee.delayMs = 2500;
          if (kind === 'error') {
            payee.failWith('get_invoice', 'Internal error: storage unavailable');
            payee.failWith('new_invoice', 'Internal error: storage unavailable');
          }
          return async () => {
            payee.clearFaults();
            await payee.start();
          };
        },
        async teardown() {
          await store.close();
          await network.close();
        },
      };
    },
  });
}
