import { meterExpress } from '@meter/adapter-express';
import { createMeter, createMeterHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import express from 'express';

const meter = createMeter({
  store: await openStore(process.env.DATABASE_URL ?? 'sqlite:./data/meter.db'),
  provider: simulatedProvider(),
});
const handler = createMeterHandler({ meter, jwt: { secret: process.env.JWT_SECRET! } });

const app = express();
app.use(meterExpress(handler)); // /api/* and /health; before any body parser
app.use(express.json()); // your routes' parser comes after
app.get('/hello', (_req, res) => {
  res.json({ hello: 'world' });
});
app.listen(Number(process.env.PORT ?? 3000));
