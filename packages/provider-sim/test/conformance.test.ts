import { runProviderConformance } from '@meter/core/testing';
import { openStore } from '@meter/store-knex';
import { simulatedProvider } from '../src/index.js';

runProviderConformance({
  name: 'simulatedProvider',
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
