import type { AddressInfo } from 'node:net';
import { bodyParser } from '@koa/bodyparser';
import { createWebhookReceiver, fileEventStore } from '@meter/client';
import Koa, { type Context } from 'koa';

const receiver = createWebhookReceiver({
  secret: process.env.METER_WEBHOOK_SECRET!,
  store: await fileEventStore(process.env.WEBHOOK_EVENTS_FILE ?? './data/webhook-events.jsonl'),
  onEvent: (event, { deliveryId }) => {
    console.log(`accepted ${event.type} ${event.id} (delivery ${deliveryId})`);
  },
});

/** The request bytes as sent. Koa has no raw-body reader; a body parser would decode them. */
async function rawBody(ctx: Context, limit = 1024 * 1024): Promise<Buffer> {
  if (ctx.req.readableEnded) throw new Error('Body already read: mount this route before body parsers');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) ctx.throw(413, 'payload too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const app = new Koa();
// Before any body parser, which would consume the stream this route reads.
app.use(async (ctx, next) => {
  if (ctx.method !== 'POST' || ctx.path !== '/webhooks/meter') return next();
  const { status, body } = await receiver.handle({ rawBody: await rawBody(ctx), headers: ctx.headers });
  ctx.status = status;
  ctx.body = body;
});
app.use(bodyParser()); // the rest of your app, parsed as usual

const server = app.listen(Number(process.env.PORT ?? 4000), () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Webhook receiver listening on http://localhost:${port}/webhooks/meter`);
});
