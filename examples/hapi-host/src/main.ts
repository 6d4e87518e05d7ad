import { randomBytes } from 'node:crypto';
import Hapi from '@hapi/hapi';
import { meterHapi } from '@meter/adapter-hapi';
import { createMeter, createMeterHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';

/** An app that existed before metering: a small notes service with routes of its own. */
const server = Hapi.server({ port: Number(process.env.PORT ?? 3003), host: 'localhost' });
const notes: { id: number; text: string }[] = [];

// metering: begin (the whole integration)
const store = await openStore(process.env.DATABASE_URL ?? 'sqlite:./data/hapi-host.db');
const meter = createMeter({ store, provider: simulatedProvider() });
const secret = process.env.JWT_SECRET ?? randomBytes(32).toString('hex');
await server.register(meterHapi(createMeterHandler({ meter, jwt: { secret } })));
// metering: end

server.route([
  { method: 'GET', path: '/', handler: () => 'Notes app. Try GET /notes, or the metering API under /api.\n' },
  { method: 'GET', path: '/notes', handler: () => notes },
  {
    method: 'POST',
    path: '/notes',
    handler: (request, h) => {
      const note = {
        id: notes.length + 1,
        text: String((request.payload as { text?: unknown })?.text ?? ''),
      };
      notes.push(note);
      return h.response(note).code(201);
    },
  },
]);

await server.start();
console.log(`hapi-host listening on http://localhost:${server.info.port}`);
process.once('SIGTERM', () => void server.stop().then(() => meter.close()));
