import { bodyParser } from '@koa/bodyparser';
import { createMeter } from '@meter/core';
import { listenOn, runHttpAdapterConformance } from '@meter/core/testing';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import Koa from 'koa';
import { meterKoa } from '../src/index.js';

runHttpAdapterConformance({
  name: 'Koa 3',
  createMeter: async ({ clock }) =>
    createMeter({ store: await openStore('sqlite::memory:'), provider: simulatedProvider(), clock }),
  // Behind @koa/bodyparser, the exact bytes come back from ctx.request.rawBody when provably exact.
  bodyParserHost: 'works',
  async listen(handler, { parseJsonFirst }) {
    const app = new Koa();
    app.use(async (ctx, next) => {
      ctx.set('x-host-middleware', 'seen');
      await next();
    });
    if (parseJsonFirst) app.use(bodyParser());
    app.use(meterKoa(handler));
    app.use(async (ctx) => {
      if (ctx.path === '/host/ping') ctx.body = { host: 'ping' };
      if (ctx.path === '/host/echo' && ctx.method === 'POST') ctx.body = ctx.request.body;
    });
    return listenOn(app.listen(0, '127.0.0.1'));
  },
});
