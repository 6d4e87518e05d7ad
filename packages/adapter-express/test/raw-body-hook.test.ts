import { createMeter, createMeterHandler } from '@meter/core';
import { listenOn } from '@meter/core/testing';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import express from 'express';
import { expect, it } from 'vitest';
import { meterExpress } from '../src/index.js';

it('behind express.json() with a verify hook keeping req.rawBody, the exact bytes still reach the meter', async () => {
  const meter = createMeter({ store: await openStore('sqlite::memory:'), provider: simulatedProvider() });
  const app = express();
  app.use(
    express.json({
      verify: (req, _res, buf) => {
        Object.assign(req, { rawBody: buf });
      },
    }),
  );
  app.use(meterExpress(createMeterHandler({ meter, jwt: { secret: 'x'.repeat(32) } })));
  const host = await listenOn(app.listen(0, '127.0.0.1'));
  try {
    const body = '{"email":"hook@example.com",\n "password":"long enough pw", "name":"H\u00e9"}';
    const res = await fetch(`${host.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).developer.name).toBe('H\u00e9');
  } finally {
    await host.close();
    await meter.close();
  }
});
