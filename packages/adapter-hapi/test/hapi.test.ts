import Hapi from '@hapi/hapi';
import { createMeter } from '@meter/core';
import { runHttpAdapterConformance } from '@meter/core/testing';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import { meterHapi } from '../src/index.js';

runHttpAdapterConformance({
  name: 'Hapi 21',
  createMeter: async ({ clock }) =>
    createMeter({ store: await openStore('sqlite::memory:'), provider: simulatedProvider(), clock }),
  // Hapi parses payloads per route: the host's parsing (on by default) never reaches the meter's routes.
  bodyParserHost: 'works',
  async listen(handler, { parseJsonFirst }) {
    const server = Hapi.server({
      host: '127.0.0.1',
      port: 0,
      routes: { payload: { parse: parseJsonFirst } },
    });
    server.ext('onPreResponse', (request, h) => {
      const response = request.response;
      if ('isBoom' in response) response.output.headers['x-host-middleware'] = 'seen';
      else response.header('x-host-middleware', 'seen');
      return h.continue;
    });
    await server.register(meterHapi(handler));
    server.route({ method: 'GET', path: '/host/ping', handler: () => ({ host: 'ping' }) });
    server.route({ method: 'POST', path: '/host/echo', handler: (request) => request.payload ?? null });
    await server.start();
    return { baseUrl: server.info.uri, close: () => server.stop({ timeout: 100 }) };
  },
});
