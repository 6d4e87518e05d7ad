import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeNetwork,
  payFromPayer,
  rpc,
  startFakeNetwork,
} from '../../packages/provider-live/test/support/index.js';
import { setupFixture, startApp, type TestApp } from '../support/harness.js';
import { type LiveTestApp, startLiveApp } from '../support/live-app.js';

describe('channel endpoints in simulated mode', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await startApp();
    ({ token } = await setupFixture(app.api));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('health answers without any node; preflight and live-proof are refused', async () => {
    const health = await app.api.get('/api/channel/health', token);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      mode: 'simulated',
      ok: true,
      payee: null,
      payer: null,
      warnings: [],
    });
    const preflight = await app.api.post('/api/channel/preflight', { invoice: 'fibt1qqqq' }, token);
    expect(preflight.status).toBe(403);
    expect(preflight.body.error).toEqual({
      code: 'forbidden',
      message: 'Preflight is only available in live mode (CHANNEL_PROVIDER=live)',
    });
    expect((await app.api.get('/api/channel/live-proof', token)).status).toBe(403);
  });

  it('translates node errors in any mode', async () => {
    const res = await app.api.post(
      '/api/channel/translate-error',
      { error: 'Send payment error: Failed to build route, PathFind error: no path found' },
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ family: 'no_route', title: 'No route to recipient', matched: true });
    expect(res.body.suggestions.length).toBeGreaterThan(0);
    const envelope = await app.api.post(
      '/api/channel/translate-error',
      { error: { code: -32000, message: 'invoice not found', data: { payment_hash: '0x00' } } },
      token,
    );
    expect(envelope.body.family).toBe('invoice_not_found');
    const unknown = await app.api.post(
      '/api/channel/translate-error',
      { error: 'strange new failure' },
      token,
    );
    expect(unknown.body).toMatchObject({ family: 'unknown', raw: 'strange new failure' });
    expect(unknown.body.explanation).toContain('strange new failure');
    expect((await app.api.post('/api/channel/translate-error', {}, token)).status).toBe(400);
    expect((await app.api.post('/api/channel/translate-error', { error: 5 }, token)).status).toBe(400);
  });

  it('needs the dashboard token', async () => {
    for (const [method, path] of [
      ['GET', '/api/channel/health'],
      ['POST', '/api/channel/preflight'],
      ['POST', '/api/channel/translate-error'],
      ['GET', '/api/channel/live-proof'],
    ] as const) {
      expect((await app.api.request(method, path, method === 'POST' ? { body: {} } : {})).status).toBe(401);
    }
  });
});

describe('channel endpoints and payments in live mode (fake nodes)', () => {
  let network: FakeNetwork;
  let app: LiveTestApp;
  let token: string;
  let customerId: string;
  beforeAll(async () => {
    network = await startFakeNetwork();
    app = await startLiveApp(network, { timeoutMs: 1000 });
    const f = await setupFixture(app.api);
    token = f.token;
    customerId = f.customerId;
  });
  afterAll(async () => {
    await app?.close();
    await network?.close();
  });
  afterEach(async () => {
    network.payee.clearFaults();
    await network.payee.start();
  });

  const create = async (amount = '10') => {
    const res = await app.api.post('/api/payment-requests', { customerId, amount, asset: 'CKB' }, token);
    expect(res.status).toBe(201);
    return res.body;
  };

  it('health reports both nodes, node info, channel counts and ready channels in CKB', async () => {
    const res = await app.api.get('/api/channel/health', token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mode: 'live',
      ok: true,
      payee: {
        reachable: true,
        node: { nodeId: network.payee.pubkey, network: 'testnet' },
        channels: { ready: 1 },
      },
      payer: { reachable: true, channels: { ready: 1 } },
    });
    expect(res.body.payer.channels.readyChannels[0]).toMatchObject({
      localBalance: '938',
      remoteBalance: '0',
    });
  });

  it('creates live requests with the invoice as paymentUri and refuses simulate-paid on them', async () => {
    const pr = await create('10');
    expect(pr).toMatchObject({ provider: 'live', status: 'pending' });
    expect(pr.paymentUri).toMatch(/^fibt10000000001[a-z0-9]+$/);
    expect(pr.paymentHash).toMatch(/^0x[0-9a-f]{64}$/);
    const sim = await app.api.post(`/api/payment-requests/${pr.id}/simulate-paid`, {}, token);
    expect(sim.status).toBe(403);
    expect(sim.body.error.code).toBe('forbidden');
  });

  it('preflight reports route and fee, with amounts as decimal strings', async () => {
    const pr = await create('2.5');
    const res = await app.api.post('/api/channel/preflight', { invoice: pr.paymentUri }, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      expectedNetwork: 'testnet',
      invoice: { amount: '2.5', paymentHash: pr.paymentHash, network: 'testnet' },
      route: { fee: '0', status: 'Created' },
    });
    expect(typeof res.body.invoice.expiresAt).toBe('string');
    expect((await app.api.post('/api/channel/preflight', {}, token)).status).toBe(400);
  });

  it('verify: Open stays pending, Paid credits once, Expired -> 410, Cancelled -> 409', async () => {
    const open = await create('1');
    const pending = await app.api.post(`/api/payment-requests/${open.id}/verify`, {}, token);
    expect(pending.body.verification).toEqual({ paid: false, alreadyPaid: false, invoiceStatus: 'Open' });
    await payFromPayer(network, open.paymentUri);
    const paid = await app.api.post(`/api/payment-requests/${open.id}/verify`, {}, token);
    expect(paid.body.verification).toEqual({ paid: true, alreadyPaid: false, invoiceStatus: 'Paid' });
    expect(paid.body.paymentRequest.status).toBe('paid');

    const expiring = await create('1');
    network.payee.expireInvoice(expiring.paymentHash);
    const expired = await app.api.post(`/api/payment-requests/${expiring.id}/verify`, {}, token);
    expect(expired.status).toBe(410);
    expect((await app.api.get(`/api/payment-requests/${expiring.id}`, token)).body.status).toBe('expired');

    const cancelling = await create('1');
    await rpc(network.payee.url, 'cancel_invoice', { payment_hash: cancelling.paymentHash });
    expect((await app.api.post(`/api/payment-requests/${cancelling.id}/verify`, {}, token)).status).toBe(409);
    expect((await app.api.get(`/api/payment-requests/${cancelling.id}`, token)).body.status).toBe(
      'cancelled',
    );

    const balance = await app.api.get(`/api/customers/${customerId}/balances/CKB`, token);
    expect(balance.body.totalFunded).toBe('1');
  });

  it('node down, slow or failing -> 503, 504, 502 with a readable message; nothing credited', async () => {
    const pr = await create('4');
    await payFromPayer(network, pr.paymentUri);
    const cases: [() => Promise<void>, number, string, RegExp][] = [
      [() => network.payee.stop(), 503, 'provider_unavailable', /^The payee node is not reachable/],
      [
        async () => {
          network.payee.delayMs = 2500;
        },
        504,
        'provider_timeout',
        /^The payee node did not answer get_invoice within 1000 ms$/,
      ],
      [
        async () => {
          network.payee.failWith('get_invoice', 'Internal error: database is locked');
          network.payee.failWith('new_invoice', 'Internal error: database is locked');
        },
        502,
        'provider_error',
        /^The payee node refused get_invoice: Internal error: database is locked$/,
      ],
    ];
    for (const [breakIt, status, code, message] of cases) {
      await breakIt();
      const res = await app.api.post(`/api/payment-requests/${pr.id}/verify`, {}, token);
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.message).toMatch(message);
      expect(res.body.error.details).toMatchObject({ node: 'payee node', method: 'get_invoice' });
      const created = await app.api.post('/api/payment-requests', { customerId, amount: '1' }, token);
      expect(created.status).toBe(status);
      network.payee.clearFaults();
      await network.payee.start();
    }
    expect((await app.api.get(`/api/payment-requests/${pr.id}`, token)).body.status).toBe('pending');
    const ok = await app.api.post(`/api/payment-requests/${pr.id}/verify`, {}, token);
    expect(ok.body.verification).toMatchObject({ paid: true, alreadyPaid: false });
  });

  it('live-proof lists each open channel with its funding transaction and explorer link; 503 when the node is down', async () => {
    const res = await app.api.get('/api/channel/live-proof', token);
    expect(res.status).toBe(200);
    const tx = network.channels[0]!.outpoint!.slice(0, 66);
    expect(res.body).toEqual({
      explorerUrl: 'https://testnet.explorer.nervos.org',
      channels: [
        expect.objectContaining({
          channelId: network.channels[0]!.id,
          peerId: network.payer.pubkey,
          state: 'ChannelReady',
          ready: true,
          fundingTxHash: tx,
          fundingOutputIndex: 0,
          explorerUrl: `https://testnet.explorer.nervos.org/transaction/${tx}`,
        }),
      ],
    });
    await network.payee.stop();
    expect((await app.api.get('/api/channel/live-proof', token)).status).toBe(503);
    const health = await app.api.get('/api/channel/health', token);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      ok: false,
      payee: { reachable: false, error: { code: 'provider_unavailable' } },
    });
  });
});
