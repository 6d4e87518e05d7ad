import { expect, it } from 'vitest';
import type { WalkState } from './account-routes.js';
import { expectError, expectOk } from './client.js';
import type { SuiteContext } from './context.js';

/** Customers, balances, payment requests, usage, ledger, webhooks and the dashboard. */
export function moneyRouteTests(s: () => SuiteContext, state: WalkState): void {
  const ids: Record<string, string> = {};

  it('customers: create 201, list pages with X-Next-Cursor, get, update, balances', async () => {
    const { api } = s();
    const t = state.token;
    for (const externalId of ['acme', 'beta', 'gamma']) {
      const res = await api.post('/api/customers', { externalId, name: externalId.toUpperCase() }, t);
      expectOk(res, 201);
      ids[externalId] = res.body.id;
    }
    expectError(await api.post('/api/customers', { externalId: 'acme' }, t), 409, 'conflict');
    const first = await api.get('/api/customers?limit=2', t);
    expectOk(first);
    expect(first.body.map((c: { externalId: string }) => c.externalId)).toEqual(['gamma', 'beta']);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const second = await api.get(`/api/customers?limit=2&cursor=${encodeURIComponent(cursor!)}`, t);
    expectOk(second);
    expect(second.body.map((c: { externalId: string }) => c.externalId)).toEqual(['acme']);
    expect(second.headers.get('x-next-cursor')).toBeNull();
    expectError(await api.get('/api/customers?limit=0', t), 400, 'validation_error');
    expectOk(await api.get(`/api/customers/${ids.acme}`, t));
    const put = await api.put(`/api/customers/${ids.acme}`, { email: 'billing@acme.example' }, t);
    expectOk(put);
    expect(put.body).toMatchObject({ externalId: 'acme', email: 'billing@acme.example' });
    const balances = await api.get(`/api/customers/${ids.acme}/balances`, t);
    expectOk(balances);
    expect(balances.body).toEqual([expect.objectContaining({ asset: 'CKB', availableBalance: '0' })]);
    const ckb = await api.get(`/api/customers/${ids.acme}/balances/CKB`, t);
    expectOk(ckb);
    expect(ckb.body).toMatchObject({ customerId: ids.acme, availableBalance: '0', totalFunded: '0' });
    expectError(await api.get(`/api/customers/${ids.acme}/balances/BTC`, t), 400, 'validation_error');
  });

  it('payment requests: create 201, list, get, simulate-paid and verify credit once', async () => {
    const { api } = s();
    const t = state.token;
    const pr = await api.post(
      '/api/payment-requests',
      { customerId: ids.acme, amount: '10', asset: 'CKB' },
      t,
    );
    expectOk(pr, 201);
    expect(pr.body).toMatchObject({ customerId: ids.acme, amount: '10', asset: 'CKB', status: 'pending' });
    ids.pr = pr.body.id;
    expectError(await api.post('/api/payment-requests', { customerId: ids.acme, amount: '0' }, t), 400);
    const list = await api.get(`/api/payment-requests?status=pending&customerId=${ids.acme}`, t);
    expectOk(list);
    expect(list.body.map((p: { id: string }) => p.id)).toEqual([ids.pr]);
    expectOk(await api.get(`/api/payment-requests/${ids.pr}`, t));
    const paid = await api.post(`/api/payment-requests/${ids.pr}/simulate-paid`, undefined, t);
    expectOk(paid);
    expect(paid.body.verification).toEqual({ paid: true, alreadyPaid: false });
    const verified = await api.post(`/api/payment-requests/${ids.pr}/verify`, {}, t);
    expectOk(verified);
    expect(verified.body.verification).toMatchObject({ paid: true, alreadyPaid: true });
    expectError(await api.get('/api/payment-requests/pr_unknown', t), 404, 'not_found');
    const balance = await api.get(`/api/customers/${ids.acme}/balances/CKB`, t);
    expect(balance.body).toMatchObject({ availableBalance: '10', totalFunded: '10' });
  });

  it('usage: charged with an API key, replayed, 409 on a changed payload, insufficient_balance as a 200', async () => {
    const { api } = s();
    const event = {
      service: 'words',
      customer: 'acme',
      metricKey: 'words',
      quantity: 3,
      idempotencyKey: 'u-1',
    };
    const charged = await api.request('POST', '/api/usage-events', {
      json: event,
      headers: { 'x-api-key': state.apiKey },
    });
    expectOk(charged);
    expect(charged.body).toMatchObject({ status: 'charged', amount: '1.5', balanceRemaining: '8.5' });
    const replay = await api.post('/api/usage-events', event, state.apiKey);
    expectOk(replay);
    expect(replay.body).toEqual({ ...charged.body, idempotent: true });
    expectError(
      await api.post('/api/usage-events', { ...event, quantity: 4 }, state.apiKey),
      409,
      'idempotency_conflict',
    );
    const refused = await api.post(
      '/api/usage-events',
      { ...event, quantity: 100, idempotencyKey: 'u-2' },
      state.token,
    );
    expectOk(refused);
    expect(refused.body).toMatchObject({ status: 'insufficient_balance', required: '50', available: '8.5' });
    const events = await api.get('/api/usage-events?customer=acme&service=words', state.token);
    expectOk(events);
    expect(events.body.map((e: { status: string }) => e.status)).toEqual(['insufficient_balance', 'charged']);
    expectError(await api.get('/api/usage-events', state.apiKey), 401, 'unauthorized');
  });

  it('GET /api/ledger and GET /api/dashboard/summary', async () => {
    const { api } = s();
    const ledger = await api.get(`/api/ledger?customerId=${ids.acme}&asset=CKB`, state.token);
    expectOk(ledger);
    expect(ledger.body.map((l: Record<string, string>) => [l.direction, l.amount, l.balanceAfter])).toEqual([
      ['debit', '1.5', '8.5'],
      ['credit', '10', '10'],
    ]);
    expectError(await api.get('/api/ledger?customerId=cus_unknown', state.token), 404, 'not_found');
    const summary = await api.get('/api/dashboard/summary', state.token);
    expectOk(summary);
    expect(summary.body).toMatchObject({ customers: expect.anything(), recentUsage: expect.any(Array) });
    expect(await s().meter.checkInvariants()).toEqual([]);
  });

  it('webhook deliveries: list, get, and retry (one more attempt)', async () => {
    const { api, meter } = s();
    await meter.idle();
    const list = await api.get('/api/webhook-deliveries', state.token);
    expectOk(list);
    expect(list.body).toHaveLength(1);
    const id = list.body[0].id;
    const one = await api.get(`/api/webhook-deliveries/${id}`, state.token);
    expectOk(one);
    expect(one.body).toMatchObject({ id, eventType: 'usage.charged' });
    const retried = await api.post(`/api/webhook-deliveries/${id}/retry`, {}, state.token);
    expectOk(retried);
    expect(retried.body.attemptCount).toBe(one.body.attemptCount + 1);
    expectError(await api.post('/api/webhook-deliveries/whd_unknown/retry', {}, state.token), 404);
    const serviceId = one.body.serviceId;
    const requeue = await api.post(
      `/api/services/${serviceId}/webhook-deliveries/retry-failed`,
      { since: '2020-01-01T00:00:00Z' },
      state.token,
    );
    expectOk(requeue);
    expect(requeue.body).toEqual({ requeued: expect.any(Number) });
    expectError(
      await api.post(
        `/api/services/${serviceId}/webhook-deliveries/retry-failed`,
        { since: 'yesterday' },
        state.token,
      ),
      400,
    );
    const events = await api.get('/api/events?type=balance.funded', state.token);
    expectOk(events);
    expect(events.body[0]).toMatchObject({ type: 'balance.funded', payload: { type: 'balance.funded' } });
    expectError(await api.get('/api/events?type=nope', state.token), 400);
  });

  it('deleting a customer: 409 while it holds a balance, 204 otherwise', async () => {
    const { api } = s();
    expectError(await api.del(`/api/customers/${ids.acme}`, state.token), 409, 'conflict');
    expectOk(await api.del(`/api/customers/${ids.gamma}`, state.token), 204);
    expectError(await api.get(`/api/customers/${ids.gamma}`, state.token), 404, 'not_found');
  });

  it('simulate-paid on an expired payment request is a 410', async () => {
    const { api, clock } = s();
    const pr = await api.post(
      '/api/payment-requests',
      { customerId: ids.beta, amount: '1', asset: 'CKB' },
      state.token,
    );
    const now = clock.now();
    clock.set(Date.parse(pr.body.expiresAt) + 1000);
    try {
      expectError(
        await api.post(`/api/payment-requests/${pr.body.id}/simulate-paid`, {}, state.token),
        410,
        'expired',
      );
    } finally {
      clock.set(now);
    }
  });

  it('channel diagnostics: health, translate-error, and preflight and live-proof (403 outside live mode)', async () => {
    const { api, meter } = s();
    const t = state.token;
    const health = await api.get('/api/channel/health', t);
    expectOk(health);
    expect(health.body.mode).toBe(meter.provider.mode);
    const words = await api.post('/api/channel/translate-error', { error: 'no path found' }, t);
    expectOk(words);
    expect(words.body).toMatchObject({ title: expect.any(String), suggestions: expect.any(Array) });
    expectError(await api.post('/api/channel/translate-error', {}, t), 400, 'validation_error');
    expectError(await api.post('/api/channel/preflight', {}, t), 400, 'validation_error');
    const live = meter.provider.mode === 'live';
    const preflight = await api.post('/api/channel/preflight', { invoice: 'fibt1000000001pcsaug0p' }, t);
    const proof = await api.get('/api/channel/live-proof', t);
    for (const res of [preflight, proof]) {
      if (live) expect([200, 502, 503, 504]).toContain(res.status);
      else expectError(res, 403, 'forbidden');
    }
  });
}
