import Hapi from '@hapi/hapi';
import { meterHapi } from '@meter/adapter-hapi';
import { createMeter, createMeterHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';

const meter = createMeter({
  store: await openStore(process.env.DATABASE_URL ?? 'sqlite:./data/meter.db'),
  provider: simulatedProvider(),
});
const handler = createMeterHandler({ meter, jwt: { secret: process.env.JWT_SECRET! } });

const server = Hapi.server({ port: Number(process.env.PORT ?? 3000) });
await server.register(meterHapi(handler)); // routes /api/{path*} and /health
server.route({ method: 'GET', path: '/hello', handler: () => ({ hello: 'world' }) });
await server.start();
