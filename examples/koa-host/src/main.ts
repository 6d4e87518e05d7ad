import { randomBytes } from 'node:crypto';
import { bodyParser } from '@koa/bodyparser';
import { meterKoa } from '@meter/adapter-koa';
import { createMeter, createMeterHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import Koa from 'koa';

/** An app that existed before metering: a small notes service with its own routes and body parser. */
const app = new Koa();
const notes: { id: number; text: string }[] = [];

// metering: begin (the whole integration)
const store = await openStore(process.env.DATABASE_URL ?? 'sqlite:./data/koa-host.db');
const meter = createMeter({ store, provider: simulatedProvider() });
const secret = process.env.JWT_SECRET ?? randomBytes(32).toString('hex');
app.use(meterKoa(createMeterHandler({ meter, jwt: { secret } }))); // before bodyParser()
// metering: end

app.use(bodyParser());
app.use(async (ctx) => {
  if (ctx.method === 'GET' && ctx.path === '/') {
    ctx.type = 'text/plain';
    ctx.body = 'Notes app. Try GET /notes, or the metering API under /api.\n';
  } else if (ctx.method === 'GET' && ctx.path === '/notes') {
    ctx.body = notes;
  } else if (ctx.method === 'POST' && ctx.path === '/notes') {
    const note = { id: notes.length + 1, text: String((ctx.request.body as { text?: unknown })?.text ?? '') };
    notes.push(note);
    ctx.status = 201;
    ctx.body = note;
  }
});

const server = app.listen(Number(process.env.PORT ?? 3002), () => {
  const address = server.address();
  console.log(`koa-host listening on http://localhost:${typeof address === 'object' ? address?.port : ''}`);
});
process.once('SIGTERM', () => server.close(() => void meter.close()));
