import { FakeNodeError } from './fake-invoice.js';
import { balancesFor, CHANNEL_RESERVE, type FakeChannel, randomHash } from './fake-network.js';
import type { FakeNode } from './fake-node.js';
import { hex, reqHex } from './fake-params.js';

/** node_info, connect_peer, list_peers, open_channel and list_channels of a fake node. */

const CHAIN_HASH = {
  Fibt: '0x10639e0895502b5688a6be8cf69460d76541bfa4821629d86d62ba0aae3f9606',
  Fibb: '0x92b197aa1fba0f63633922c61c92375c9c074a93e85963554f5499fe1450d0e5',
  Fibd: '0x0000000000000000000000000000000000000000000000000000000000000d3f',
};
const AUTO_ACCEPT_MIN = 100n * 100_000_000n;
const PENDING = [
  'NegotiatingFunding',
  'CollaboratingFundingTx',
  'SigningCommitment',
  'AwaitingTxSignatures',
  'AwaitingChannelReady',
];

/** v0.7 spelled states in SCREAMING_SNAKE and flags as "A | B" (ChannelReady: `[]`). */
const screaming = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();

export function channelMethods(node: FakeNode): Record<string, (p: Record<string, unknown>) => unknown> {
  const { network } = node;
  const legacy = network.dialect === 'v0.7';
  const mine = (c: FakeChannel) => c.opener === node || c.acceptor === node;
  const peerOf = (c: FakeChannel) => (c.opener === node ? c.acceptor : c.opener);

  function channelJson(c: FakeChannel) {
    const peer = peerOf(c);
    const { local, remote } = balancesFor(c, node);
    const state: Record<string, unknown> = { state_name: legacy ? screaming(c.state) : c.state };
    if (c.flags.length > 0) state.state_flags = c.flags.join(legacy ? ' | ' : '|');
    else if (legacy) state.state_flags = [];
    return {
      channel_id: c.id,
      is_public: c.isPublic,
      is_acceptor: c.acceptor === node,
      is_one_way: false,
      channel_outpoint: c.outpoint,
      ...(legacy ? { peer_id: peer.peerId } : { pubkey: peer.pubkey }),
      funding_udt_type_script: null,
      state,
      local_balance: hex(local),
      offered_tlc_balance: '0x0',
      remote_balance: hex(remote),
      received_tlc_balance: '0x0',
      pending_tlcs: [],
      latest_commitment_transaction_hash: c.outpoint ? randomHash() : null,
      created_at: hex(c.createdAt),
      enabled: c.enabled,
      tlc_expiry_delta: '0xdbba00',
      tlc_fee_proportional_millionths: '0x3e8',
      shutdown_transaction_hash: null,
      failure_detail: c.failureDetail,
    };
  }

  /** The opening steps, one per network step: funding tx built (outpoint known), then ready. */
  function progress(c: FakeChannel, funding: bigint) {
    if (funding < AUTO_ACCEPT_MIN) return; // the acceptor waits for a manual accept_channel
    network.later(network.stepMs, () => {
      if (funding > c.opener.walletShannons) {
        c.state = 'Closed';
        c.flags = ['FUNDING_ABORTED'];
        c.failureDetail = 'Funding transaction aborted';
        return;
      }
      c.opener.walletShannons -= funding;
      c.state = 'AwaitingChannelReady';
      c.flags = ['OUR_CHANNEL_READY', 'CHANNEL_READY'];
      c.outpoint = `${randomHash()}00000000`;
      network.later(network.stepMs, () => {
        c.state = 'ChannelReady';
        c.flags = [];
        c.openerBalance = funding - CHANNEL_RESERVE;
      });
    });
  }

  return {
    node_info() {
      const channels = network.channels.filter(mine);
      return {
        version: legacy ? '0.7.1' : '0.8.0',
        commit_hash: '7afd8447',
        ...(legacy ? { node_id: node.pubkey } : { pubkey: node.pubkey }),
        features: ['GOSSIP_QUERIES_REQUIRED', 'BASIC_MPP_OPTIONAL'],
        node_name: node.name,
        addresses: [node.address],
        chain_hash: CHAIN_HASH[network.currency],
        open_channel_auto_accept_min_ckb_funding_amount: hex(AUTO_ACCEPT_MIN),
        auto_accept_channel_ckb_funding_amount: '0x24e160300',
        tlc_expiry_delta: '0xdbba00',
        tlc_min_value: '0x0',
        tlc_fee_proportional_millionths: '0x3e8',
        channel_count: hex(channels.filter((c) => c.state === 'ChannelReady').length),
        pending_channel_count: hex(channels.filter((c) => PENDING.includes(c.state)).length),
        peers_count: hex(node.connectedTo.size),
        udt_cfg_infos: [],
      };
    },

    connect_peer(p) {
      const address = typeof p.address === 'string' ? p.address : null;
      const pubkey = typeof p.pubkey === 'string' ? p.pubkey : null;
      if (!address && !pubkey) throw new FakeNodeError('either `address` or `pubkey` is required');
      const peer = address
        ? network.nodes.find((n) => n.address === address || address.endsWith(`/p2p/${n.peerId}`))
        : network.nodeByPubkey(pubkey!);
      if (!peer) {
        throw new FakeNodeError(
          address
            ? `Failed to dial ${address}: connection refused`
            : `Peer not found error: Pubkey(${pubkey})`,
        );
      }
      if (node.connectedTo.has(peer.pubkey))
        throw new FakeNodeError(`Peer already connected: ${peer.peerId}`);
      node.connectedTo.add(peer.pubkey);
      peer.connectedTo.add(node.pubkey);
      return null;
    },

    list_peers() {
      const peers = [...node.connectedTo].map((pk) => network.nodeByPubkey(pk)!);
      return {
        peers: peers.map((n) => ({
          pubkey: n.pubkey,
          address: n.address,
          ...(legacy ? { peer_id: n.peerId } : {}),
        })),
      };
    },

    open_channel(p) {
      const id = String((legacy ? p.peer_id : p.pubkey) ?? '');
      const funding = reqHex(p, 'funding_amount');
      const peer = network.nodeByPubkey(id);
      if (!peer || !node.connectedTo.has(peer.pubkey)) {
        throw new FakeNodeError(
          `Invalid parameter: Peer Pubkey(${id})'s feature not found, waiting for peer to send Init message`,
        );
      }
      if (funding < CHANNEL_RESERVE) {
        throw new FakeNodeError(
          `The funding amount (${funding}) should be greater than or equal to ${CHANNEL_RESERVE}`,
        );
      }
      const channel: FakeChannel = {
        id: randomHash(),
        outpoint: null,
        opener: node,
        acceptor: peer,
        openerBalance: 0n,
        acceptorBalance: 0n,
        state: 'NegotiatingFunding',
        flags: ['OUR_INIT_SENT', 'INIT_SENT'],
        isPublic: p.public !== false,
        enabled: true,
        createdAt: Date.now(),
        failureDetail: null,
      };
      network.channels.push(channel);
      progress(channel, funding);
      return { temporary_channel_id: randomHash() };
    },

    list_channels(p) {
      if (p.only_pending === true && p.include_closed === true) {
        throw new FakeNodeError('only_pending and include_closed are mutually exclusive');
      }
      const peer = typeof p.pubkey === 'string' ? network.nodeByPubkey(p.pubkey) : null;
      const channels = network.channels
        .filter(mine)
        .filter((c) => !peer || peerOf(c) === peer)
        .filter((c) => (p.include_closed === true ? true : c.state !== 'Closed'))
        .filter((c) => (p.only_pending === true ? PENDING.includes(c.state) : true))
        .sort((a, b) => b.createdAt - a.createdAt);
      return { channels: channels.map(channelJson) };
    },
  };
}
