import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAmount } from '@meter/core';
import { createRpcClient } from '@meter/provider-live';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeNetwork,
  startFakeNetwork,
  waitFor,
} from '../../../packages/provider-live/test/support/index.js';
import { signUp } from '../../../test/support/harness.js';
import { type LiveTestApp, startLiveApp } from '../../../test/support/live-app.js';
import { type ApiClient, createApiClient, type PaymentRequestView } from '../src/api-client.js';
import { createAutoPayer } from '../src/auto-payer.js';
import { loadAutoPayerConfig } from '../src/config.js';
import { openPaymentState } from '../src/state.js';

const PASSWORD = 'correct horse battery';

describe('auto-payer', () => {
  let network: FakeNetwork;
  let app: LiveTestApp;
  let email: string;
  let token: string;
  let customerId: string;
  let logs: string[];
  let stateDir: string;

  beforeAll(async () => {
    network = await startFakeNetwork();
    app = await startLiveApp(network, { jwtTtlSeconds: 1 });
    ({ email, token } = await signUp(app.api));
    customerId = (await asAdmin((t) => app.api.post('/api/customers', { externalId: 'acme' }, t))).body.id;
  });
  afterAll(async () => {
    await app?.close();
    await network?.close();
  });
  afterEach(() => {
    network.payee.clearFaults();
    network.payer.clearFaults();
  });

  const freshToken = async () => {
    token = (await app.api.post('/api/auth/login', { email, password: PASSWORD })).body.token;
    return token;
  };
  /**
   * The test's own calls, with a token that lives 1 s (so the auto-payer's re-login can be
   * tested): on a loaded machine a token can expire before its request is served, so log in
   * again and repeat on a 401.
   */
  const asAdmin = async <T>(call: (t: string) => Promise<{ status: number; body: T }>) => {
    for (let attempt = 1; ; attempt++) {
      const res = await call(await freshToken());
      if (res.status !== 401 || attempt === 5) return res;
    }
  };
  const newRequest = async (amount: string) => {
    const res = await asAdmin((t) =>
      app.api.post('/api/payment-requests', { customerId, amount, asset: 'CKB' }, t),
    );
    expect(res.status).toBe(201);
    return res.body as PaymentRequestView;
  };
  const statusOf = async (id: string) =>
    (await asAdmin((t) => app.api.get(`/api/payment-requests/${id}`, t))).body.status;
  const sends = () => network.payer.callCount('send_payment');

  function autoPayer(
    options: { stateFile?: string; api?: ApiClient; maxCkb?: string; settleMs?: number } = {},
  ) {
    logs = [];
    stateDir ??= mkdtempSync(join(tmpdir(), 'auto-payer-'));
    const log = (m: string) => logs.push(m);
    const state = openPaymentState(options.stateFile ?? join(stateDir, `state-${Math.random()}.json`));
    return {
      state,
      payer: createAutoPayer({
        api: options.api ?? createApiClient({ baseUrl: app.baseUrl, email, password: PASSWORD, log }),
        payer: createRpcClient({ url: network.payer.url, role: 'payer node', timeoutMs: 1500 }),
        state,
        maxPayment: parseAmount(options.maxCkb ?? '1000', 'CKB'),
        pollMs: 50,
        settleTimeoutMs: options.settleMs ?? 10_000, // generous: CI shares 2 cores with every other suite
        log,
      }),
    };
  }

  it('pays a live pending request once, verifies it and leaves it alone afterwards', async () => {
    const request = await newRequest('10');
    const before = sends();
    const { payer, state } = autoPayer();
    await payer.tick();
    expect(await statusOf(request.id)).toBe('paid');
    expect(sends() - before).toBe(1);
    expect(state.get(request.id)).toMatchObject({
      state: 'paid',
      attempts: 1,
      paymentHash: request.paymentHash,
    });
    expect(logs.join('\n')).toMatch(new RegExp(`paying ${request.id}: 10 CKB`));
    expect(logs.join('\n')).toMatch(/verified paid/);
    const balance = await asAdmin((t) => app.api.get(`/api/customers/${customerId}/balances/CKB`, t));
    expect(balance.body.totalFunded).toBe('10');
    await payer.tick();
    expect(sends() - before).toBe(1);
  });

  it('never pays twice across a restart, whether the state file survives or not', async () => {
    network.payee.holdPayments = true; // the request stays pending while the payment is in flight
    const request = await newRequest('2');
    const before = sends();
    const stateFile = join(mkdtempSync(join(tmpdir(), 'auto-payer-')), 'state.json');
    const first = autoPayer({ stateFile, settleMs: 200 });
    await first.payer.tick();
    expect(sends() - before).toBe(1);
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).payments[0]).toMatchObject({
      requestId: request.id,
      state: 'sent',
    });

    const restarted = autoPayer({ stateFile, settleMs: 200 });
    await restarted.payer.tick();
    const lostState = autoPayer({ settleMs: 200 }); // a new, empty state file: the payer node is asked first
    await lostState.payer.tick();
    expect(logs.join('\n')).toMatch(/already has payment .*not paying again/);
    expect(sends() - before).toBe(1);

    network.payee.holdPayments = false;
    await restarted.payer.tick();
    expect(await statusOf(request.id)).toBe('paid');
    expect(sends() - before).toBe(1);
  });

  it('sends again only when the payer node has no record of an interrupted send', async () => {
    const request = await newRequest('1');
    const stateFile = join(mkdtempSync(join(tmpdir(), 'auto-payer-')), 'state.json');
    // A crash between writing the state and send_payment reaching the node:
    writeFileSync(
      stateFile,
      JSON.stringify({
        version: 1,
        payments: [
          {
            requestId: request.id,
            paymentHash: request.paymentHash,
            amount: '1',
            state: 'sending',
            attempts: 1,
            note: null,
            updatedAt: '',
          },
        ],
      }),
    );
    const before = sends();
    const { payer } = autoPayer({ stateFile });
    await payer.tick(); // finds no payment on the node
    await payer.tick(); // sends it
    expect(sends() - before).toBe(1);
    expect(await statusOf(request.id)).toBe('paid');
  });

  it('refuses amounts above MAX_PAYMENT_CKB and assets other than CKB, logging each once', async () => {
    const big = await newRequest('5');
    const before = sends();
    const { payer } = autoPayer({ maxCkb: '4' });
    await payer.tick();
    await payer.tick();
    expect(sends() - before).toBe(0);
    expect(
      logs.filter((l) => l.startsWith(`refusing ${big.id}: 5 CKB is above MAX_PAYMENT_CKB (4 CKB)`)),
    ).toHaveLength(1);
    expect(await statusOf(big.id)).toBe('pending');

    const fakeUsd: PaymentRequestView = { ...big, id: 'pr_usd', asset: 'USDI' };
    const stub: ApiClient = {
      listLivePending: async () => [fakeUsd],
      verify: async () => expect.fail('no verify'),
    };
    const other = autoPayer({ api: stub });
    await other.payer.tick();
    expect(logs).toEqual(['refusing pr_usd: asset USDI is not CKB; only CKB is paid']);
    expect(sends() - before).toBe(0);
  });

  it('logs in again when its JWT expires', async () => {
    const { payer } = autoPayer();
    await payer.tick();
    const logins = () => logs.filter((l) => l.startsWith('logged in')).length;
    const first = logins();
    expect(first).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 2100)); // the API's tokens live 1 s
    await newRequest('1');
    await payer.tick();
    expect(logs.join('\n')).toMatch(
      /refused the token \(The token has expired; log in again\); logging in again/,
    );
    expect(logins()).toBeGreaterThan(first);
    expect(logs.join('\n')).toMatch(/verified paid/);
  });

  it('survives API and payer node outages and catches up afterwards', async () => {
    const { payer } = autoPayer();
    await app.stop();
    await payer.tick();
    expect(logs.at(-1)).toMatch(/cannot list payment requests: the API at .* is not reachable/);
    await app.start();

    const request = await newRequest('3');
    await network.payer.stop();
    await payer.tick();
    expect(logs.at(-1)).toMatch(
      new RegExp(`${request.id}: The payer node is not reachable .*; will try again`),
    );
    await network.payer.start();

    network.payer.delayMs = 2500; // slower than the auto-payer's 1.5 s RPC timeout
    await payer.tick();
    expect(logs.at(-1)).toMatch(/did not answer .* within 1500 ms; will try again/);
    network.payer.delayMs = 0;

    await payer.tick();
    await waitFor(async () => (await statusOf(request.id)) === 'paid', 3000);
    expect(network.payer.payments.get(request.paymentHash!)?.status).toBe('Success');
  });

  it('reads its settings with the documented defaults', () => {
    expect(loadAutoPayerConfig({})).toEqual({
      apiUrl: 'http://localhost:3000',
      email: 'demo@meter.local',
      password: 'demo-password',
      payerRpcUrl: 'http://127.0.0.1:8237',
      pollMs: 3000,
      maxPayment: 100_000_000_000n,
      maxPaymentCkb: '1000',
      stateFile: './data/auto-payer-state.json',
    });
    expect(loadAutoPayerConfig({ MAX_PAYMENT_CKB: '0.5', POLL_MS: '250' })).toMatchObject({
      maxPayment: 50_000_000n,
      pollMs: 250,
    });
    expect(() => loadAutoPayerConfig({ MAX_PAYMENT_CKB: '1e3' })).toThrow(
      /^Invalid auto-payer configuration: MAX_PAYMENT_CKB/,
    );
    expect(() => loadAutoPayerConfig({ PAYER_RPC_URL: 'localhost:8237' })).toThrow(
      /PAYER_RPC_URL must be an http\(s\) URL/,
    );
  });
});
