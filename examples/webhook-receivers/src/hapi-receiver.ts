import Hapi from '@hapi/hapi';
import { createWebhookReceiver, fileEventStore } from '@meter/client';

const receiver = createWebhookReceiver({
  secret: process.env.METER_WEBHOOK_SECRET!,
  store: await fileEventStore(process.env.WEBHOOK_EVENTS_FILE ?? './data/webhook-events.jsonl'),
  onEvent: (event, { deliveryId }) => {
    console.log(`accepted ${event.type} ${event.id} (delivery ${deliveryId})`);
  },
});

const server = Hapi.server({ port: Number(process.env.PORT ?? 4000) });
server.route({
  method: 'POST',
  path: '/webhooks/meter',
  // Unparsed: request.payload is the raw Buffer the signature covers.
  options: { payload: { parse: false, output: 'data' } },
  handler: async (request, h) => {
    const { status, body } = await receiver.handle({
      rawBody: request.payload as Buffer,
      headers: request.headers,
    });
    return h.response(body as object).code(status);
  },
});

await server.start();
console.log(`Webhook receiver listening on http://localhost:${server.info.port}/webhooks/meter`);
