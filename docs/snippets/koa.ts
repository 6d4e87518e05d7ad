import { bodyParser } from '@koa/bodyparser';
import { meterKoa } from '@meter/adapter-koa';
import { createMeter, createMeterHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import Koa from 'koa';

const meter = createMeter({
  store: await openStore(process.env.DATABASE_URL ?? 'sqlite:./data/meter.db'),
  provider: simulatedProvider(),
});
const handler = createMeterHandler({ meter, jwt: { secret: process.env.JWT_SECRET! } });

const app = new Koa();
app.use(meterKoa(handler)); // /api/* and /health; before any body parser
app.use(bodyParser()); // your routes' parser comes after
app.use(async (ctx) => {
  if (ctx.path === '/hello') ctx.body = { hello: 'world' };
});
app.listen(Number(process.env.PORT ?? 3000));
