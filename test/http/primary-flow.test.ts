import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund, setupFixture, startApp, type TestApp, usage } from '../support/harness.js';
import { startReceiver } from '../support/receiver.js';

describe('the primary flow over HTTP (simulated mode, SQLite)', () => {
  let app: TestApp;
  let secret = 'whsec_fixture_secret_0123456789';
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    app = await startApp();
    receiver = await startReceiver(() => secret);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  it('funds, charges, rejects for balance, keeps the ledger and signs the webhook', async () => {
    const { api } = app;
    const f = await setupFixture(api, { price: '0.01', webhookUrl: receiver.url });

    const config = await api.get('/api/channel/config');
    expect(config.body).toMatchObject({ provider: 'simulated', invoiceExpirySecs: 3600 });

    const pr = await api.post(
      '/api/payment-requests',
      { customerId: f.customerId, amount: '1', asset: 'CKB' },
      f.token,
    );
    expect(pr.status).toBe(201);
    expect(pr.body).toMatchObject({ status: 'pending', provider: 'simulated', amount: '1', asset: 'CKB' });
    expect(pr.body.paymentUri).toMatch(/^meter-sim:\/\/pay\//);
    expect(Date.parse(pr.body.expiresAt) - Date.parse(pr.body.createdAt)).toBe(3600_000);

    const paid = await api.post(`/api/payment-requests/${pr.body.id}/simulate-paid`, {}, f.token);
    expect(paid.status).toBe(200);
    expect(paid.body.verification).toEqual({ paid: true, alreadyPaid: false });
    expect(paid.body.paymentRequest.status).toBe('paid');

    const again = await api.post(`/api/payment-requests/${pr.body.id}/simulate-paid`, {}, f.token);
    expect(again.body.verification).toEqual({ paid: true, alreadyPaid: true });

    const balance = await api.get(`/api/customers/${f.customerId}/balances/CKB`, f.token);
    expect(balance.body).toMatchObject({ availableBalance: '1', totalFunded: '1', totalSpent: '0' });

    const charged = await api.post(
      '/api/usage-events',
      usage(f, 60, 'k-1', { metadata: { doc: 'a' } }),
      f.token,
    );
    expect(charged.status).toBe(200);
    expect(charged.body).toEqual({
      status: 'charged',
      usageEventId: expect.stringMatching(/^use_/),
      customer: 'acme',
      service: 'words',
      metricKey: 'words',
      quantity: 60,
      amount: '0.6',
      asset: 'CKB',
      balanceRemaining: '0.4',
    });

    const refused = await api.post('/api/usage-events', usage(f, 60, 'k-2'), f.token);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      status: 'insufficient_balance',
      usageEventId: expect.stringMatching(/^use_/),
      required: '0.6',
      available: '0.4',
      asset: 'CKB',
      paymentRequired: true,
    });

    const after = await api.get(`/api/customers/${f.customerId}/balances/CKB`, f.token);
    expect(after.body).toMatchObject({ availableBalance: '0.4', totalFunded: '1', totalSpent: '0.6' });

    const events = await api.get('/api/usage-events', f.token);
    expect(events.body.map((e: { status: string }) => e.status)).toEqual(['insufficient_balance', 'charged']);
    const rejected = await api.get('/api/usage-events?status=insufficient_balance', f.token);
    expect(rejected.body).toHaveLength(1);

    const ledger = await api.get(`/api/ledger?customerId=${f.customerId}`, f.token);
    expect(
      ledger.body.map((l: Record<string, string>) => [l.type, l.direction, l.amount, l.balanceAfter]),
    ).toEqual([
      ['usage', 'debit', '0.6', '0.4'],
      ['funding', 'credit', '1', '1'],
    ]);

    await app.meter.idle();
    expect(receiver.received).toHaveLength(1);
    const delivery = receiver.received[0]!;
    expect(delivery.signatureValid).toBe(true);
    expect(delivery.headers['x-meter-event']).toBe('usage.charged');
    expect(Math.abs(Number(delivery.headers['x-meter-timestamp']) - Date.now())).toBeLessThan(60_000);
    expect(JSON.parse(delivery.rawBody)).toMatchObject({
      usageEventId: charged.body.usageEventId,
      customer: 'acme',
      service: 'words',
      amount: '0.6',
      asset: 'CKB',
    });

    const deliveries = await api.get('/api/webhook-deliveries', f.token);
    expect(deliveries.body).toHaveLength(1);
    expect(deliveries.body[0]).toMatchObject({ status: 'sent', attemptCount: 1, lastStatusCode: 200 });
    expect(deliveries.body[0].id).toBe(delivery.headers['x-meter-delivery']);
    expect(deliveries.body[0].attempts[0]).toMatchObject({ url: receiver.url, statusCode: 200 });

    expect(await app.meter.checkInvariants()).toEqual([]);
  });

  it('records failed deliveries and retries with the current URL and secret', async () => {
    const { api } = app;
    const down = 'http://127.0.0.1:9/unreachable';
    const f = await setupFixture(api, { price: '1', webhookUrl: down });
    await fund(api, f.token, f.customerId, '5');
    const charged = await api.post('/api/usage-events', usage(f, 1, 'r-1'), f.token);
    expect(charged.body.status).toBe('charged');
    await app.meter.idle();

    // The first attempt failed: the delivery stays pending, scheduled for a retry in about 5 s.
    const failed = await api.get('/api/webhook-deliveries?status=pending', f.token);
    expect(failed.body).toHaveLength(1);
    expect(failed.body[0].attempts[0]).toMatchObject({ url: down, statusCode: null });
    expect(failed.body[0].lastError).toBeTruthy();
    const wait =
      Date.parse(failed.body[0].nextAttemptAt) - Date.parse(failed.body[0].attempts[0].attemptedAt);
    expect(wait).toBeGreaterThanOrEqual(4500);
    expect(wait).toBeLessThanOrEqual(5500);

    secret = 'whsec_rotated_secret_0123456789';
    const put = await api.put(
      `/api/services/${f.serviceId}`,
      { webhookUrl: receiver.url, webhookSecret: secret },
      f.token,
    );
    expect(put.status).toBe(200);
    const before = receiver.received.length;
    const retried = await api.post(`/api/webhook-deliveries/${failed.body[0].id}/retry`, {}, f.token);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'sent', attemptCount: 2, lastStatusCode: 200 });
    expect(retried.body.attempts.map((a: { url: string }) => a.url)).toEqual([down, receiver.url]);
    const got = receiver.received[before]!;
    expect(got.signatureValid).toBe(true);
    expect(got.rawBody).toBe(failed.body[0].payload);
  });
});
