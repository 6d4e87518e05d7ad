import type { PreflightReport } from '@meter/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveProvider } from '../src/index.js';
import { type FakeNetwork, rpc, startFakeNetwork } from './support/index.js';

const check = (report: PreflightReport, id: string) => report.checks.find((c) => c.id === id);

describe('live diagnostics on fake nodes', () => {
  let network: FakeNetwork;
  let provider: ReturnType<typeof liveProvider>;
  const invoice = async (amountHex = '0x3b9aca00', url = network.payee.url) =>
    (await rpc(url, 'new_invoice', { amount: amountHex, currency: 'Fibt', expiry: '0xe10' }))
      .invoice_address as string;

  beforeAll(async () => {
    network = await startFakeNetwork();
    provider = liveProvider({
      rpcUrl: network.payee.url,
      preflightRpcUrl: network.payer.url,
      timeoutMs: 2000,
    });
  });
  afterAll(async () => {
    await network?.close();
  });

  it('health: both nodes reachable, node info, channel counts and the ready channel', async () => {
    const health = await provider.diagnostics.health();
    expect(health).toMatchObject({ mode: 'live', ok: true, currency: 'Fibt', warnings: [] });
    expect(health.payee).toMatchObject({
      role: 'payee',
      reachable: true,
      error: null,
      node: { nodeId: network.payee.pubkey, version: '0.8.0', network: 'testnet', channelCount: 1 },
      channels: { total: 1, ready: 1, pending: 0 },
    });
    expect(health.payee.channels!.readyChannels[0]).toMatchObject({
      peerId: network.payer.pubkey,
      ready: true,
      localBalance: 0n,
    });
    expect(health.payer).toMatchObject({ role: 'payer', reachable: true, channels: { ready: 1 } });
  });

  it('health: a payer that is down is reported, not thrown', async () => {
    await network.payer.stop();
    try {
      const health = await provider.diagnostics.health();
      expect(health.ok).toBe(false);
      expect(health.payee.reachable).toBe(true);
      expect(health.payer).toMatchObject({
        reachable: false,
        node: null,
        error: { code: 'provider_unavailable', family: 'node_unreachable' },
      });
      expect(health.warnings.join('\n')).toMatch(/payer node cannot be asked/);
    } finally {
      await network.payer.start();
    }
  });

  it('health: a payee without a ready channel gets a warning', async () => {
    const bare = await startFakeNetwork({ channelCkb: false });
    try {
      const health = await liveProvider({ rpcUrl: bare.payee.url }).diagnostics.health();
      expect(health).toMatchObject({
        ok: false,
        payer: null,
        payee: { reachable: true, channels: { ready: 0 } },
      });
      expect(health.warnings[0]).toMatch(/no ChannelReady channel/);
    } finally {
      await bare.close();
    }
  });

  it('health and live proof read v0.7 nodes (node_id, peer_id, SCREAMING_SNAKE states)', async () => {
    const old = await startFakeNetwork({ dialect: 'v0.7' });
    try {
      const p = liveProvider({ rpcUrl: old.payee.url, preflightRpcUrl: old.payer.url });
      const health = await p.diagnostics.health();
      expect(health.ok).toBe(true);
      expect(health.payee.node!.nodeId).toBe(old.payee.pubkey);
      expect(health.payee.channels!.readyChannels[0]).toMatchObject({
        state: 'ChannelReady',
        peerId: old.payer.peerId,
      });
      expect((await p.diagnostics.liveProof()).channels[0]!.fundingTxHash).toBe(
        old.channels[0]!.outpoint!.slice(0, 66),
      );
    } finally {
      await old.close();
    }
  });

  it('preflight: decodes, checks the network and dry-runs on the payer without paying', async () => {
    const inv = await invoice();
    const report = await provider.diagnostics.preflight(inv);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['format', 'pass'],
      ['network', 'pass'],
      ['decode', 'pass'],
      ['expiry', 'pass'],
      ['route', 'pass'],
    ]);
    expect(report.invoice).toMatchObject({
      network: 'testnet',
      amount: 1_000_000_000n,
      payee: network.payee.pubkey,
    });
    expect(report.route).toEqual({ fee: 0n, status: 'Created' });
    expect(network.payer.calls.filter((c) => c.method === 'send_payment').at(-1)!.params).toEqual({
      invoice: inv,
      dry_run: true,
    });
    expect(network.payer.payments.size).toBe(0);
  });

  it('preflight: translated failures for no route, insufficient balance, self-payment, another network and bad input', async () => {
    const tooMuch = await provider.diagnostics.preflight(
      await invoice(`0x${(5000n * 100_000_000n).toString(16)}`),
    );
    expect(check(tooMuch, 'route')).toMatchObject({
      status: 'fail',
      error: { family: 'insufficient_balance' },
    });
    expect(tooMuch.ok).toBe(false);

    const own = await provider.diagnostics.preflight(await invoice('0x1', network.payer.url));
    expect(check(own, 'route')).toMatchObject({ status: 'fail', error: { family: 'self_payment' } });

    const fresh = await invoice();
    const tampered = `${fresh.slice(0, -8)}qqqqqqqq`;
    expect(check(await provider.diagnostics.preflight(tampered), 'decode')).toMatchObject({
      status: 'fail',
      error: { family: 'invoice_malformed' },
    });
    expect(check(await provider.diagnostics.preflight('lnbc1garbage'), 'format')).toMatchObject({
      status: 'fail',
    });

    const mainnet = await startFakeNetwork({ currency: 'Fibb' });
    try {
      const foreign = (await rpc(mainnet.payee.url, 'new_invoice', { amount: '0x1', currency: 'Fibb' }))
        .invoice_address;
      const report = await provider.diagnostics.preflight(foreign);
      expect(check(report, 'network')).toMatchObject({ status: 'fail' });
      expect(check(report, 'network')!.message).toMatch(/mainnet \(fibb\).*testnet \(fibt\)/);
      expect(check(report, 'route')).toMatchObject({ status: 'skip' });
    } finally {
      await mainnet.close();
    }

    network.closeChannels();
    try {
      const noRoute = await provider.diagnostics.preflight(await invoice());
      expect(check(noRoute, 'route')).toMatchObject({
        status: 'fail',
        error: { family: 'no_route', title: 'No route to recipient' },
      });
    } finally {
      for (const c of network.channels) {
        c.state = 'ChannelReady';
        c.flags = [];
      }
    }
  });

  it('preflight: an expired invoice fails the expiry check', async () => {
    const past = await startFakeNetwork();
    try {
      const inv = (
        await rpc(past.payee.url, 'new_invoice', { amount: '0x1', currency: 'Fibt', expiry: '0x1' })
      ).invoice_address;
      await new Promise((r) => setTimeout(r, 1100));
      const report = await liveProvider({
        rpcUrl: past.payee.url,
        preflightRpcUrl: past.payer.url,
      }).diagnostics.preflight(inv);
      expect(check(report, 'expiry')).toMatchObject({ status: 'fail' });
      expect(check(report, 'route')).toMatchObject({ status: 'skip' });
    } finally {
      await past.close();
    }
  });

  it('preflight without a payer node decodes on the payee and skips the dry run', async () => {
    const report = await liveProvider({ rpcUrl: network.payee.url }).diagnostics.preflight(await invoice());
    expect(check(report, 'decode')!.status).toBe('pass');
    expect(check(report, 'route')).toMatchObject({ status: 'skip' });
    expect(report.ok).toBe(false);
  });

  it('live proof: funding tx hash from channel_outpoint, with the explorer link', async () => {
    const proof = await provider.diagnostics.liveProof();
    const outpoint = network.channels[0]!.outpoint!;
    expect(proof.channels).toHaveLength(1);
    expect(proof.channels[0]).toMatchObject({
      fundingTxHash: outpoint.slice(0, 66),
      fundingOutputIndex: 0,
      explorerUrl: `https://testnet.explorer.nervos.org/transaction/${outpoint.slice(0, 66)}`,
      state: 'ChannelReady',
    });
    await network.payee.stop();
    try {
      await expect(provider.diagnostics.liveProof()).rejects.toMatchObject({ code: 'provider_unavailable' });
    } finally {
      await network.payee.start();
    }
  });
});
