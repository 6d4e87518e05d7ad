import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeNetwork, startFakeNetwork } from '../../packages/provider-live/test/support/index.js';
import { apiClient } from '../support/harness.js';
import { runTs } from '../support/spawn-process.js';
import { type SpawnedServer, spawnDemoServer } from '../support/spawn-server.js';

/** `npm run auto-payer` as its own process. */
const spawnAutoPayer = (env: Record<string, string>) => runTs('examples/auto-payer/src/main.ts', { env });

describe('hosted demo: API in live mode on the payee node, auto-payer on the payer node', () => {
  let network: FakeNetwork;
  let server: SpawnedServer;
  let autoPayer: ReturnType<typeof spawnAutoPayer>;

  beforeAll(async () => {
    network = await startFakeNetwork();
    server = await spawnDemoServer({
      CHANNEL_PROVIDER: 'live',
      CHANNEL_RPC_URL: network.payee.url,
      CHANNEL_PREFLIGHT_RPC_URL: network.payer.url,
      JWT_SECRET: 'hosted-demo-test-secret-0123456789abcdef',
    });
    autoPayer = spawnAutoPayer({
      API_URL: server.baseUrl,
      API_EMAIL: 'demo@meter.local',
      API_PASSWORD: 'demo-password',
      PAYER_RPC_URL: network.payer.url,
      POLL_MS: '250',
      MAX_PAYMENT_CKB: '100',
      STATE_FILE: join(mkdtempSync(join(tmpdir(), 'auto-payer-e2e-')), 'state.json'),
    });
  }, 60_000);
  afterAll(async () => {
    await autoPayer?.stop();
    await server?.stop();
    await network?.close();
  });

  it('a new payment request is paid within seconds, credited, proven on chain, then charged by usage', async () => {
    expect(server.output()).toMatch(
      /listening on http:\/\/\S+ \(live mode, payee node http:\/\/127\.0\.0\.1:\d+/,
    );
    const api = apiClient(server.baseUrl);
    const token = (
      await api.post('/api/auth/login', { email: 'demo@meter.local', password: 'demo-password' })
    ).body.token;
    expect((await api.get('/api/channel/config')).body).toMatchObject({ provider: 'live', currency: 'Fibt' });
    const customer = (await api.get('/api/customers', token)).body.find(
      (c: { externalId: string }) => c.externalId === 'acme',
    );

    const started = Date.now();
    const created = await api.post(
      '/api/payment-requests',
      { customerId: customer.id, amount: '10', asset: 'CKB' },
      token,
    );
    expect(created.status).toBe(201);
    expect(created.body.paymentUri).toMatch(/^fibt10000000001/);
    let status = created.body.status;
    while (status !== 'paid' && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await api.get(`/api/payment-requests/${created.body.id}`, token)).body.status;
    }
    const paidAfterMs = Date.now() - started;
    console.log(`hosted demo: payment request paid ${paidAfterMs} ms after creation`);
    expect(status).toBe('paid');
    expect(paidAfterMs).toBeLessThan(5000);
    expect(autoPayer.output()).toContain(`paying ${created.body.id}: 10 CKB`);
    // The API says paid as soon as verify credits; the auto-payer logs it a moment later.
    const logged = Date.now();
    while (!autoPayer.output().includes(`${created.body.id}: verified paid`) && Date.now() - logged < 5000) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(autoPayer.output()).toContain(`${created.body.id}: verified paid`);

    const balance = await api.get(`/api/customers/${customer.id}/balances/CKB`, token);
    expect(balance.body).toMatchObject({ availableBalance: '10', totalFunded: '10' });

    const proof = await api.get('/api/channel/live-proof', token);
    const fundingTx = network.channels[0]!.outpoint!.slice(0, 66);
    expect(proof.body.channels[0]).toMatchObject({
      fundingTxHash: fundingTx,
      explorerUrl: `https://testnet.explorer.nervos.org/transaction/${fundingTx}`,
    });
    const health = await api.get('/api/channel/health', token);
    expect(health.body).toMatchObject({ mode: 'live', ok: true });

    const usage = await api.post(
      '/api/usage-events',
      {
        service: 'word-counter',
        customer: 'acme',
        metricKey: 'words',
        quantity: 100,
        idempotencyKey: 'hosted-demo-1',
      },
      token,
    );
    expect(usage.body).toMatchObject({ status: 'charged', amount: '1', balanceRemaining: '9' });
    expect(network.payer.callCount('send_payment')).toBe(1);
  }, 30_000);
});

describe('live-mode startup', () => {
  const oneLine = async (env: Record<string, string>) => {
    const err = await spawnDemoServer(env).then(
      async (s) => {
        await s.stop();
        throw new Error('the server started');
      },
      (e: Error) => e.message,
    );
    const out = err.slice(err.indexOf('\n') + 1).trim();
    expect(out.split('\n')).toHaveLength(1);
    return out;
  };

  it('stops with one clear line on an unknown provider or a live mode without CHANNEL_RPC_URL', async () => {
    expect(await oneLine({ CHANNEL_PROVIDER: 'lsp' })).toBe(
      'Invalid configuration: CHANNEL_PROVIDER: CHANNEL_PROVIDER must be "simulated" or "live"',
    );
    expect(await oneLine({ CHANNEL_PROVIDER: 'live' })).toBe(
      'Invalid configuration: CHANNEL_RPC_URL is required when CHANNEL_PROVIDER=live',
    );
  }, 60_000);

  it('starts while the payee node is down and says so', async () => {
    const server = await spawnDemoServer({ CHANNEL_PROVIDER: 'live', CHANNEL_RPC_URL: 'http://127.0.0.1:9' });
    try {
      const deadline = Date.now() + 10_000;
      while (!/Payee node: +not reachable/.test(server.output()) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(server.output()).toMatch(/Payee node: +not reachable/);
      expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
