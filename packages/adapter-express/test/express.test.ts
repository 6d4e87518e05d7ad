import { createMeter } from '@meter/core';
import { listenOn, runHttpAdapterConformance } from '@meter/core/testing';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import express5 from 'express';
import express4 from 'express4';
import { meterExpress } from '../src/index.js';

for (const [name, express] of [
  ['Express 5', express5],
  ['Express 4', express4],
] as const) {
  runHttpAdapterConformance({
    name,
    createMeter: async ({ clock }) =>
      createMeter({ store: await openStore('sqlite::memory:'), provider: simulatedProvider(), clock }),
    bodyParserHost: 'refuses',
    async listen(handler, { parseJsonFirst }) {
      const app = express();
      app.use((_req, res, next) => {
        res.setHeader('x-host-middleware', 'seen');
        next();
      });
      if (parseJsonFirst) app.use(express.json());
      app.use(meterExpress(handler));
      app.get('/host/ping', (_req, res) => void res.json({ host: 'ping' }));
      app.post('/host/echo', (req, res) => void res.json(req.body));
      return listenOn(app.listen(0, '127.0.0.1'));
    },
  });
}
