import { randomBytes } from 'node:crypto';
import { meterExpress } from '@meter/adapter-express';
import { createMeter, createMeterHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import express from 'express';

/** An app that existed before metering: a small notes service with its own routes and body parser. */
const app = express();
const notes: { id: number; text: string }[] = [];

// metering: begin (the whole integration)
const store = await openStore(process.env.DATABASE_URL ?? 'sqlite:./data/express-host.db');
const meter = createMeter({ store, provider: simulatedProvider() });
const secret = process.env.JWT_SECRET ?? randomBytes(32).toString('hex');
app.use(meterExpress(createMeterHandler({ meter, jwt: { secret } }))); // before express.json()
// metering: end

app.use(express.json());
app.get('/', (_req, res) => {
  res.type('text/plain').send('Notes app. Try GET /notes, or the metering API under /api.\n');
});
app.get('/notes', (_req, res) => {
  res.json(notes);
});
app.post('/notes', (req, res) => {
  const note = { id: notes.length + 1, text: String(req.body?.text ?? '') };
  notes.push(note);
  res.status(201).json(note);
});

const server = app.listen(Number(process.env.PORT ?? 3001), () => {
  const address = server.address();
  console.log(
    `express-host listening on http://localhost:${typeof address === 'object' ? address?.port : ''}`,
  );
});
process.once('SIGTERM', () => server.close(() => void meter.close()));
