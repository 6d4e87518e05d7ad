import { createFetchHandler, createMeter, createMeterHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import { Hono } from 'hono';

const meter = createMeter({
  store: await openStore(process.env.DATABASE_URL ?? 'sqlite:./data/meter.db'),
  provider: simulatedProvider(),
});
const handler = createMeterHandler({ meter, jwt: { secret: process.env.JWT_SECRET! } });
const meterFetch = createFetchHandler(handler);

const app = new Hono();
app.use(async (c, next) => {
  const response = await meterFetch(c.req.raw); // null: not a metering path
  if (response) return response;
  await next();
});
app.get('/hello', (c) => c.json({ hello: 'world' }));

export default app; // Bun and Deno serve this; on Node, serve it with @hono/node-server
