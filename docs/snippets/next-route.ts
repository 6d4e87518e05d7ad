// app/api/[...path]/route.ts in a Next.js app (Node.js runtime)
import { createFetchHandler, createMeter, createMeterHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';

const meter = createMeter({
  store: await openStore(process.env.DATABASE_URL ?? 'sqlite:./data/meter.db'),
  provider: simulatedProvider(),
});
const handler = createMeterHandler({ meter, jwt: { secret: process.env.JWT_SECRET! } });
const meterFetch = createFetchHandler(handler, {
  fallback: () => new Response(null, { status: 404 }), // not reached: this file only gets /api/*
});

const handle = (request: Request) => meterFetch(request);

export { handle as DELETE, handle as GET, handle as POST, handle as PUT };
