import {
  type ChannelDiagnostics,
  type ChannelHealth,
  type ChannelSummary,
  MeterError,
  type NodeHealth,
} from '@meter/core';
import { type FiberCurrency, NETWORK_OF } from './invoice.js';
import { createPreflight } from './preflight.js';
import { type RpcClient, translateThrown } from './rpc-client.js';
import {
  fundingOutpoint,
  listChannelsResult,
  nodeInfoResult,
  PENDING_STATES,
  type WireChannel,
} from './wire.js';

export const CHAIN_HASHES: Record<string, 'testnet' | 'mainnet'> = {
  '0x10639e0895502b5688a6be8cf69460d76541bfa4821629d86d62ba0aae3f9606': 'testnet',
  '0x92b197aa1fba0f63633922c61c92375c9c074a93e85963554f5499fe1450d0e5': 'mainnet',
};

export interface DiagnosticsOptions {
  payee: RpcClient;
  payer: RpcClient | null;
  currency: FiberCurrency;
  explorerUrl: string;
}

const errorInfo = (err: unknown) => {
  const { family, title, explanation, suggestions } = translateThrown(err);
  return {
    code: err instanceof MeterError ? err.code : 'provider_error',
    message: err instanceof Error ? err.message : String(err),
    family,
    title,
    explanation,
    suggestions,
  };
};

/** Health, preflight and live proof over the payee node and the optional payer node. */
export function createDiagnostics(options: DiagnosticsOptions): ChannelDiagnostics {
  const { payee, payer, currency } = options;
  const explorerBase = options.explorerUrl.replace(/\/+$/, '');
  const expectedNetwork = NETWORK_OF[currency];

  function summary(c: WireChannel): ChannelSummary {
    const outpoint = fundingOutpoint(c.channel_outpoint);
    return {
      channelId: c.channel_id,
      peerId: c.peerId,
      state: c.state.name,
      stateFlags: c.state.flags,
      ready: c.state.name === 'ChannelReady',
      localBalance: c.local_balance,
      remoteBalance: c.remote_balance,
      fundingTxHash: outpoint?.txHash ?? null,
      fundingOutputIndex: outpoint?.index ?? null,
      explorerUrl: outpoint ? `${explorerBase}/transaction/${outpoint.txHash}` : null,
      isPublic: c.is_public ?? null,
      enabled: c.enabled ?? null,
    };
  }

  async function nodeHealth(role: NodeHealth['role'], rpc: RpcClient): Promise<NodeHealth> {
    const started = performance.now();
    try {
      const [info, list] = await Promise.all([
        rpc.call('node_info', [], nodeInfoResult),
        rpc.call('list_channels', {}, listChannelsResult),
      ]);
      const channels = list.channels.map(summary);
      return {
        role,
        reachable: true,
        latencyMs: Math.round(performance.now() - started),
        error: null,
        node: {
          nodeId: info.nodeId,
          version: info.version ?? null,
          chainHash: info.chain_hash ?? null,
          network: info.chain_hash ? (CHAIN_HASHES[info.chain_hash.toLowerCase()] ?? 'unknown') : null,
          peersCount: info.peers_count,
          channelCount: info.channel_count,
          pendingChannelCount: info.pending_channel_count,
        },
        channels: {
          total: channels.length,
          ready: channels.filter((c) => c.ready).length,
          pending: channels.filter((c) => PENDING_STATES.has(c.state)).length,
          readyChannels: channels.filter((c) => c.ready),
        },
      };
    } catch (err) {
      const error = errorInfo(err);
      return {
        role,
        // A node that answered with an error is up; one that refused or timed out is not.
        reachable: error.code === 'provider_error',
        latencyMs: null,
        error,
        node: null,
        channels: null,
      };
    }
  }

  function warningsFor(h: NodeHealth, other: NodeHealth | null): string[] {
    const name = `The ${h.role} node`;
    if (!h.reachable || !h.node || !h.channels)
      return [`${name} cannot be asked: ${h.error?.message ?? 'unknown error'}`];
    const out: string[] = [];
    if (h.channels.ready === 0) {
      out.push(
        h.role === 'payee'
          ? `${name} has no ChannelReady channel, so no payment can reach it: open a funded channel from a payer node to it and wait for ChannelReady.`
          : `${name} has no ChannelReady channel, so it cannot pay.`,
      );
    } else if (h.role === 'payee') {
      const inbound = h.channels.readyChannels.reduce((sum, c) => sum + c.remoteBalance, 0n);
      if (inbound === 0n)
        out.push(`${name}'s ready channels have no inbound capacity: payers have nothing left to send.`);
    }
    const network = h.node.network;
    if (network && network !== 'unknown' && network !== expectedNetwork) {
      out.push(`${name} runs on ${network} but CHANNEL_CURRENCY is ${currency} (${expectedNetwork}).`);
    }
    if (
      other?.node?.chainHash &&
      h.node.chainHash &&
      other.node.chainHash !== h.node.chainHash &&
      h.role === 'payer'
    ) {
      out.push('The payer and payee nodes are on different chains.');
    }
    return out;
  }

  return {
    async health(): Promise<ChannelHealth> {
      const [payeeHealth, payerHealth] = await Promise.all([
        nodeHealth('payee', payee),
        payer ? nodeHealth('payer', payer) : Promise.resolve(null),
      ]);
      const warnings = [
        ...warningsFor(payeeHealth, payerHealth),
        ...(payerHealth ? warningsFor(payerHealth, payeeHealth) : []),
      ];
      const payeeReady =
        payeeHealth.reachable && !payeeHealth.error && (payeeHealth.channels?.ready ?? 0) > 0;
      const payerOk = !payerHealth || (payerHealth.reachable && !payerHealth.error);
      return {
        mode: 'live',
        ok: payeeReady && payerOk,
        currency,
        payee: payeeHealth,
        payer: payerHealth,
        warnings,
      };
    },

    preflight: createPreflight({ payee, payer, currency }),

    async liveProof() {
      const list = await payee.call('list_channels', {}, listChannelsResult);
      const channels = list.channels.map(summary).filter((c) => c.state !== 'Closed');
      return { explorerUrl: explorerBase, channels };
    },
  };
}
