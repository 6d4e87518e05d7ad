import type { AddressInfo } from 'node:net';
import { createWebhookReceiver, fileEventStore } from '@meter/client';
import express from 'express';

const receiver = createWebhookReceiver({
  secret: process.env.METER_WEBHOOK_SECRET!,
  store: await fileEventStore(process.env.WEBHOOK_EVENTS_FILE ?? './data/webhook-events.jsonl'),
  onEvent: (event, { deliveryId }) => {
    console.log(`accepted ${event.type} ${event.id} (delivery ${deliveryId})`);
  },
});

const app = express();
// The raw bytes for this route only: the signature covers them exactly.
app.post('/webhooks/meter', express.raw({ type: 'application/json' }), async (req, res) => {
  const rawBody = (req.body as Buffer | undefined) ?? Buffer.alloc(0); // Express 5: undefined when empty
  const { status, body } = await receiver.handle({ rawBody, headers: req.headers });
  res.status(status).json(body);
});
app.use(express.json()); // the rest of your app, parsed as usual

const server = app.listen(Number(process.env.PORT ?? 4000), () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Webhook receiver listening on http://localhost:${port}/webhooks/meter`);
});
