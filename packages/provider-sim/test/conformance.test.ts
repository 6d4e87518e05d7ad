import { runProviderConformance } from '@meter/core/testing';
import { openStore } from '@meter/store-knex';
import { simulatedProvider } from '../src/index.js';

runProviderConformance({
  name: 'simulatedProvider',
  // No node: nothing to expire, cancel or take down on the settlement side.
  settlement: { expire: false, cancel: false, outages: false },
  async setup() {
    const store = await openStore('sqlite::memory:');
    return {
      provider: simulatedProvider(),
      store,
      // The simulated settlement side is simulate-paid itself.
      pay: async (request, meter) => {
        await meter.simulatePaid(request.developerId, request.id);
      },
      teardown: () => store.close(),
    };
  },
});
