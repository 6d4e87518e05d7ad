import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlakyReceiver } from '../support/flaky-receiver.js';
import { setupFixture, startApp, type TestApp } from '../support/harness.js';

describe('balance.funded: a typed event, stored, delivered only to services that opt in', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startFlakyReceiver>>;
  beforeAll(async () => {
    app = await startApp();
    receiver = await startFlakyReceiver(() => 200);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  it('is emitted, stored, and delivered to opted-in services only', async () => {
    const f = await setupFixture(app.api, { webhookUrl: receiver.url });
    expect((await app.api.get(`/api/services/${f.serviceId}`, f.token)).body.webhookEvents).toEqual([
      'usage.charged',
    ]);
    const optedIn = await app.api.post(
      '/api/services',
      { name: 'Billing', slug: 'billing', webhookUrl: receiver.url, webhookEvents: ['balance.funded'] },
      f.token,
    );
    expect(optedIn.status).toBe(201);
    expect(optedIn.body.webhookEvents).toEqual(['balance.funded']);

    const seen: unknown[] = [];
    const off = app.meter.on('balance.funded', ({ paymentRequest, balance }) =>
      seen.push([paymentRequest.id, balance.available]),
    );
    const pr = await app.api.post(
      '/api/payment-requests',
      { customerId: f.customerId, amount: '2.5', asset: 'CKB' },
      f.token,
    );
    await app.api.post(`/api/payment-requests/${pr.body.id}/simulate-paid`, {}, f.token);
    await app.api.post(`/api/payment-requests/${pr.body.id}/simulate-paid`, {}, f.token);
    off();
    await app.meter.idle();
    expect(seen).toEqual([[pr.body.id, 250_000_000n]]);

    const events = await app.api.get('/api/events?type=balance.funded', f.token);
    expect(events.body).toHaveLength(1);
    expect(events.body[0]).toMatchObject({
      type: 'balance.funded',
      subjectId: pr.body.id,
      payload: {
        type: 'balance.funded',
        paymentRequestId: pr.body.id,
        customer: 'acme',
        amount: '2.5',
        asset: 'CKB',
      },
    });

    const deliveries = (await app.api.get('/api/webhook-deliveries', f.token)).body;
    expect(
      deliveries.map((d: { serviceId: string; eventType: string; status: string }) => [
        d.serviceId,
        d.eventType,
        d.status,
      ]),
    ).toEqual([[optedIn.body.id, 'balance.funded', 'sent']]);
    expect(receiver.hits).toHaveLength(1);
    // The delivered body is the stored event plus its (signed) delivery id.
    expect(JSON.parse(receiver.hits[0]!.rawBody)).toEqual({
      ...events.body[0].payload,
      deliveryId: deliveries[0].id,
    });
    expect(receiver.hits[0]!.deliveryId).toBe(deliveries[0].id);

    // Opting out again through an update stops further deliveries.
    await app.api.put(`/api/services/${optedIn.body.id}`, { webhookEvents: [] }, f.token);
    const pr2 = await app.api.post(
      '/api/payment-requests',
      { customerId: f.customerId, amount: '1', asset: 'CKB' },
      f.token,
    );
    await app.api.post(`/api/payment-requests/${pr2.body.id}/simulate-paid`, {}, f.token);
    await app.meter.idle();
    expect((await app.api.get('/api/webhook-deliveries', f.token)).body).toHaveLength(1);
    expect((await app.api.get('/api/events', f.token)).body).toHaveLength(2);
    const bad = await app.api.put(`/api/services/${optedIn.body.id}`, { webhookEvents: ['nope'] }, f.token);
    expect(bad.status).toBe(400);
  });
});
