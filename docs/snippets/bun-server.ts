// bun run bun-server.ts
import { createFetchHandler, createMeter, createMeterHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';

const meter = createMeter({
  store: await openStore(process.env.DATABASE_URL!), // e.g. postgres://... (see below)
  provider: simulatedProvider(),
});
const handler = createMeterHandler({ meter, jwt: { secret: process.env.JWT_SECRET! } });
const meterFetch = createFetchHandler(handler, {
  fallback: () => Response.json({ hello: 'world' }), // your app
});

type Server = { requestIP(request: Request): { address: string } | null };
export default {
  port: Number(process.env.PORT ?? 3000),
  fetch: (request: Request, server: Server) =>
    meterFetch(request, { remoteAddress: server.requestIP(request)?.address }),
};
