import { parseAmount } from '@meter/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund, setupFixture, startApp, type TestApp, usage } from '../support/harness.js';

describe('usage guarantees', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const balanceOf = async (token: string, customerId: string) =>
    (await app.api.get(`/api/customers/${customerId}/balances/CKB`, token)).body;

  it('insufficient balance is a 200, is recorded, and charges nothing', async () => {
    const f = await setupFixture(app.api, { price: '2' });
    const res = await app.api.post('/api/usage-events', usage(f, 1, 'poor-1'), f.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'insufficient_balance',
      required: '2',
      available: '0',
      paymentRequired: true,
    });
    expect(await balanceOf(f.token, f.customerId)).toMatchObject({ availableBalance: '0', totalSpent: '0' });
    const events = await app.api.get('/api/usage-events', f.token);
    expect(events.body).toHaveLength(1);
    expect(events.body[0]).toMatchObject({ status: 'insufficient_balance', amount: '2' });
    expect((await app.api.get('/api/ledger', f.token)).body).toEqual([]);
  });

  it('a replayed key returns the original body with idempotent: true and charges nothing', async () => {
    const f = await setupFixture(app.api, { price: '1' });
    await fund(app.api, f.token, f.customerId, '10');
    const first = await app.api.post('/api/usage-events', usage(f, 3, 'same'), f.token);
    const replay = await app.api.post(
      '/api/usage-events',
      usage(f, 3, 'same', { metadata: { other: true } }),
      f.token,
    );
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ ...first.body, idempotent: true });
    expect(await balanceOf(f.token, f.customerId)).toMatchObject({ availableBalance: '7', totalSpent: '3' });
  });

  it('a charged key is still replayed after its pricing rule was deactivated', async () => {
    const f = await setupFixture(app.api, { price: '1' });
    await fund(app.api, f.token, f.customerId, '10');
    const first = await app.api.post('/api/usage-events', usage(f, 2, 'before-change'), f.token);
    await app.api.put(`/api/pricing-rules/${f.ruleId}`, { active: false }, f.token);
    const replay = await app.api.post('/api/usage-events', usage(f, 2, 'before-change'), f.token);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ ...first.body, idempotent: true });
    expect((await app.api.post('/api/usage-events', usage(f, 3, 'before-change'), f.token)).status).toBe(409);
    expect((await app.api.post('/api/usage-events', usage(f, 2, 'new-key'), f.token)).status).toBe(404);
    expect(await balanceOf(f.token, f.customerId)).toMatchObject({ availableBalance: '8' });
  });

  it('the same key with a different payload is a 409 idempotency_conflict and writes nothing', async () => {
    const f = await setupFixture(app.api, { price: '1' });
    await fund(app.api, f.token, f.customerId, '10');
    await app.api.post('/api/usage-events', usage(f, 3, 'k'), f.token);
    const conflict = await app.api.post('/api/usage-events', usage(f, 4, 'k'), f.token);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
    expect((await app.api.get('/api/usage-events', f.token)).body).toHaveLength(1);
    expect(await balanceOf(f.token, f.customerId)).toMatchObject({ availableBalance: '7' });
  });

  it('a key rejected for balance and retried after funding charges exactly once', async () => {
    const f = await setupFixture(app.api, { price: '5' });
    const rejected = await app.api.post('/api/usage-events', usage(f, 1, 'later'), f.token);
    expect(rejected.body.status).toBe('insufficient_balance');
    await fund(app.api, f.token, f.customerId, '12');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => app.api.post('/api/usage-events', usage(f, 1, 'later'), f.token)),
    );
    expect(results.every((r) => r.body.status === 'charged')).toBe(true);
    expect(results.filter((r) => !r.body.idempotent)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.usageEventId)).size).toBe(1);
    expect(await balanceOf(f.token, f.customerId)).toMatchObject({ availableBalance: '7', totalSpent: '5' });
    expect(await app.meter.checkInvariants(f.developerId)).toEqual([]);
  });

  it('50 concurrent requests against a balance for exactly 20: 20 charged, 30 refused, balance 0', async () => {
    const f = await setupFixture(app.api, { price: '0.5' });
    await fund(app.api, f.token, f.customerId, '10');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => app.api.post('/api/usage-events', usage(f, 1, `c-${i}`), f.token)),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.status === 'charged')).toHaveLength(20);
    expect(results.filter((r) => r.body.status === 'insufficient_balance')).toHaveLength(30);
    expect(await balanceOf(f.token, f.customerId)).toMatchObject({ availableBalance: '0', totalSpent: '10' });
    const ledger = (await app.api.get('/api/ledger?limit=1000', f.token)).body as {
      direction: string;
      amount: string;
    }[];
    const sum = ledger.reduce(
      (acc, l) => acc + (l.direction === 'credit' ? 1n : -1n) * parseAmount(l.amount, 'CKB'),
      0n,
    );
    expect(sum).toBe(0n);
    expect(await app.meter.checkInvariants(f.developerId)).toEqual([]);
  });

  it('20 concurrent simulate-paid calls on one request credit once', async () => {
    const f = await setupFixture(app.api);
    const pr = await app.api.post(
      '/api/payment-requests',
      { customerId: f.customerId, amount: '3', asset: 'CKB' },
      f.token,
    );
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.api.post(`/api/payment-requests/${pr.body.id}/simulate-paid`, {}, f.token),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.verification.alreadyPaid === false)).toHaveLength(1);
    expect(await balanceOf(f.token, f.customerId)).toMatchObject({ availableBalance: '3', totalFunded: '3' });
    expect((await app.api.get('/api/ledger', f.token)).body).toHaveLength(1);
  });

  it('a balance of 50,000,000,000 CKB funds and charges exactly to the shannon', async () => {
    const f = await setupFixture(app.api, { price: '0.00000001' });
    await fund(app.api, f.token, f.customerId, '50000000000');
    const charged = await app.api.post('/api/usage-events', usage(f, 1, 'one-shannon'), f.token);
    expect(charged.body).toMatchObject({
      status: 'charged',
      amount: '0.00000001',
      balanceRemaining: '49999999999.99999999',
    });
    const big = await app.api.post('/api/services', { name: 'Big', slug: 'big' }, f.token);
    await app.api.post(
      `/api/services/${big.body.id}/pricing-rules`,
      {
        name: 'Big',
        metricKey: 'big',
        unitName: 'unit',
        pricingModel: 'per_unit',
        price: '12345678901.23456789',
      },
      f.token,
    );
    const second = await app.api.post(
      '/api/usage-events',
      { service: 'big', customer: 'acme', metricKey: 'big', quantity: 3, idempotencyKey: 'big-1' },
      f.token,
    );
    expect(second.body).toMatchObject({
      status: 'charged',
      amount: '37037036703.70370367',
      balanceRemaining: '12962963296.29629632',
    });
    expect(await balanceOf(f.token, f.customerId)).toEqual(
      expect.objectContaining({
        availableBalance: '12962963296.29629632',
        totalFunded: '50000000000',
        totalSpent: '37037036703.70370368',
      }),
    );
    expect(await app.meter.checkInvariants(f.developerId)).toEqual([]);
  });

  it('an expired payment request cannot be paid', async () => {
    let now = Date.now();
    const clockApp = await startApp({ clock: { now: () => new Date(now) } });
    try {
      const g = await setupFixture(clockApp.api);
      const pr = await clockApp.api.post(
        '/api/payment-requests',
        { customerId: g.customerId, amount: '1', asset: 'CKB' },
        g.token,
      );
      now += 3600_000;
      expect((await clockApp.api.get(`/api/payment-requests/${pr.body.id}`, g.token)).body.status).toBe(
        'expired',
      );
      const pending = await clockApp.api.get('/api/payment-requests?status=pending', g.token);
      expect(pending.body).toEqual([]);
      const late = await clockApp.api.post(`/api/payment-requests/${pr.body.id}/simulate-paid`, {}, g.token);
      expect(late.status).toBe(410);
      expect(late.body.error.code).toBe('expired');
      const expired = await clockApp.api.get('/api/payment-requests?status=expired', g.token);
      expect(expired.body.map((p: { id: string }) => p.id)).toEqual([pr.body.id]);
      expect(
        (await clockApp.api.get(`/api/customers/${g.customerId}/balances/CKB`, g.token)).body
          .availableBalance,
      ).toBe('0');
    } finally {
      await clockApp.close();
    }
  });
});
