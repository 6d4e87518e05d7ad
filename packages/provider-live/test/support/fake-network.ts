import { randomBytes } from 'node:crypto';
import type { FakeCurrency } from './fake-invoice.js';
import { createFakeNode, type FakeNode } from './fake-node.js';

/**
 * A fake channel network for tests: JSON-RPC servers on 127.0.0.1 that speak the node's wire
 * format (reference: fiber-rpc.md, v0.8, or v0.7 spellings with `dialect: 'v0.7'`). Nodes share
 * one network: invoices made on one node can be paid from another through a ChannelReady
 * channel; balances move; payments go Created -> Inflight -> Success and the payee's invoice
 * goes Open -> Received -> Paid.
 */

export const CKB = 100_000_000n;
/** What a CKB channel keeps out of the balances (occupied shutdown cell + close fee). */
export const CHANNEL_RESERVE = 62n * CKB;

export interface FakeChannel {
  id: string;
  /** `0x` + 64 hex funding tx hash + `00000000` (output 0). */
  outpoint: string | null;
  opener: FakeNode;
  acceptor: FakeNode;
  openerBalance: bigint;
  acceptorBalance: bigint;
  state: string;
  flags: string[];
  isPublic: boolean;
  enabled: boolean;
  createdAt: number;
  failureDetail: string | null;
}

export interface FakeNetworkOptions {
  currency?: FakeCurrency;
  /** A ready channel from the payer to the payee with this funding in CKB (default 1000); false for none. */
  channelCkb?: number | false;
  /** Time of each payment and channel-opening step in ms (default 20). */
  stepMs?: number;
  /** Wire spellings: 'v0.8' (default) or the older 'v0.7'. */
  dialect?: 'v0.8' | 'v0.7';
}

export interface FakeNetwork {
  currency: FakeCurrency;
  stepMs: number;
  dialect: 'v0.8' | 'v0.7';
  payee: FakeNode;
  payer: FakeNode;
  nodes: FakeNode[];
  channels: FakeChannel[];
  /** Starts another node on the network. */
  addNode(name: string): Promise<FakeNode>;
  nodeByPubkey(pubkey: string): FakeNode | undefined;
  /** Opens a ChannelReady channel at once (what open_channel reaches after its steps). */
  openReadyChannel(from: FakeNode, to: FakeNode, fundingCkb: number): FakeChannel;
  /** Closes every channel: payments then find no route. */
  closeChannels(): void;
  /** Runs fn after ms; pending timers are cleared by close(). */
  later(ms: number, fn: () => void): void;
  close(): Promise<void>;
}

export const randomHash = () => `0x${randomBytes(32).toString('hex')}`;

export async function startFakeNetwork(options: FakeNetworkOptions = {}): Promise<FakeNetwork> {
  const timers = new Set<NodeJS.Timeout>();
  const network: FakeNetwork = {
    currency: options.currency ?? 'Fibt',
    stepMs: options.stepMs ?? 20,
    dialect: options.dialect ?? 'v0.8',
    payee: undefined as unknown as FakeNode,
    payer: undefined as unknown as FakeNode,
    nodes: [],
    channels: [],
    async addNode(name) {
      const node = await createFakeNode(network, name);
      network.nodes.push(node);
      return node;
    },
    nodeByPubkey: (pubkey) => network.nodes.find((n) => n.pubkey === pubkey || n.peerId === pubkey),
    openReadyChannel(from, to, fundingCkb) {
      from.connectedTo.add(to.pubkey);
      to.connectedTo.add(from.pubkey);
      const channel: FakeChannel = {
        id: randomHash(),
        outpoint: `${randomHash()}00000000`,
        opener: from,
        acceptor: to,
        openerBalance: BigInt(fundingCkb) * CKB - CHANNEL_RESERVE,
        acceptorBalance: 0n,
        state: 'ChannelReady',
        flags: [],
        isPublic: true,
        enabled: true,
        createdAt: Date.now(),
        failureDetail: null,
      };
      network.channels.push(channel);
      return channel;
    },
    closeChannels() {
      for (const c of network.channels) {
        c.state = 'Closed';
        c.flags = ['COOPERATIVE'];
      }
    },
    later(ms, fn) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      timers.add(timer);
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all(network.nodes.map((n) => n.stop()));
    },
  };
  network.payee = await network.addNode('payee');
  network.payer = await network.addNode('payer');
  const channelCkb = options.channelCkb ?? 1000;
  if (channelCkb !== false) network.openReadyChannel(network.payer, network.payee, channelCkb);
  return network;
}

/** The channel balance of `node` (local) and of its peer (remote). */
export function balancesFor(channel: FakeChannel, node: FakeNode): { local: bigint; remote: bigint } {
  return channel.opener === node
    ? { local: channel.openerBalance, remote: channel.acceptorBalance }
    : { local: channel.acceptorBalance, remote: channel.openerBalance };
}

/** Adds `delta` to `node`'s side of the channel (negative takes away). */
export function adjustBalance(channel: FakeChannel, node: FakeNode, delta: bigint): void {
  if (channel.opener === node) channel.openerBalance += delta;
  else channel.acceptorBalance += delta;
}
