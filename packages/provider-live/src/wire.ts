import { z } from 'zod';
import { hexBigint, hexNumber } from './hex.js';

/**
 * The node's response shapes (v0.8 names), validated at the edge. Older spellings are
 * accepted too: `node_id` next to `pubkey`, `peer_id` next to `pubkey`, SCREAMING_SNAKE
 * channel state names, `state_flags` as a string, an array or absent, PascalCase invoice attrs.
 */

const nullableHex = hexBigint.nullish().transform((v) => v ?? null);

export const wireInvoice = z.looseObject({
  currency: z.string(),
  amount: nullableHex,
  data: z.looseObject({
    timestamp: hexNumber,
    payment_hash: z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/, 'expected a 32-byte hash'),
    attrs: z.array(z.record(z.string(), z.unknown())).default([]),
  }),
});
export type WireInvoice = z.output<typeof wireInvoice>;

export const newInvoiceResult = z.looseObject({ invoice_address: z.string().min(1), invoice: wireInvoice });
export const getInvoiceResult = z.looseObject({
  invoice_address: z.string().optional(),
  invoice: wireInvoice,
  status: z.string(),
});
export const parseInvoiceResult = z.looseObject({ invoice: wireInvoice });

export const paymentResult = z.looseObject({
  payment_hash: z.string(),
  status: z.string(),
  fee: nullableHex,
  failed_error: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});
export type PaymentResult = z.output<typeof paymentResult>;

const optionalCount = hexNumber.nullish().transform((v) => v ?? null);

export const nodeInfoResult = z
  .looseObject({
    version: z.string().nullish(),
    pubkey: z.string().nullish(),
    node_id: z.string().nullish(),
    chain_hash: z.string().nullish(),
    addresses: z.array(z.string()).nullish(),
    channel_count: optionalCount,
    pending_channel_count: optionalCount,
    peers_count: optionalCount,
  })
  .transform((n) => ({ ...n, nodeId: n.pubkey ?? n.node_id ?? null }));
export type NodeInfo = z.output<typeof nodeInfoResult>;

const flags = z
  .union([z.string(), z.array(z.unknown())])
  .nullish()
  .transform((v) => {
    if (v === null || v === undefined) return [];
    const parts = typeof v === 'string' ? v.split('|') : v.map(String);
    return parts.map((p) => p.trim()).filter(Boolean);
  });

const STATE_NAMES = [
  'NegotiatingFunding',
  'CollaboratingFundingTx',
  'SigningCommitment',
  'AwaitingTxSignatures',
  'AwaitingChannelReady',
  'ChannelReady',
  'ShuttingDown',
  'Closed',
];
const STATE_BY_KEY = new Map(STATE_NAMES.map((name) => [name.toLowerCase(), name]));

/** `CHANNEL_READY`, `channel_ready` and `ChannelReady` all become `ChannelReady`. */
export function normalizeStateName(name: string): string {
  return STATE_BY_KEY.get(name.replace(/[_\s]/g, '').toLowerCase()) ?? name;
}

export const PENDING_STATES = new Set(STATE_NAMES.slice(0, 5));

const channelState = z
  .union([z.string(), z.looseObject({ state_name: z.string(), state_flags: flags })])
  .transform((s) =>
    typeof s === 'string'
      ? { name: normalizeStateName(s), flags: [] as string[] }
      : { name: normalizeStateName(s.state_name), flags: s.state_flags },
  );

export const wireChannel = z
  .looseObject({
    channel_id: z.string(),
    channel_outpoint: z
      .union([z.string(), z.looseObject({ tx_hash: z.string(), index: z.union([z.string(), z.number()]) })])
      .nullish(),
    pubkey: z.string().nullish(),
    peer_id: z.string().nullish(),
    state: channelState,
    local_balance: hexBigint,
    remote_balance: hexBigint,
    is_public: z.boolean().nullish(),
    enabled: z.boolean().nullish(),
  })
  .transform((c) => ({ ...c, peerId: c.pubkey ?? c.peer_id ?? null }));
export type WireChannel = z.output<typeof wireChannel>;

export const listChannelsResult = z.looseObject({ channels: z.array(wireChannel) });

/** The funding outpoint: `0x` + 64 hex tx hash + 8 hex output index (u32 little-endian). */
export function fundingOutpoint(
  outpoint: WireChannel['channel_outpoint'],
): { txHash: string; index: number } | null {
  if (!outpoint) return null;
  if (typeof outpoint === 'object') {
    const index = typeof outpoint.index === 'number' ? outpoint.index : Number(BigInt(outpoint.index));
    return { txHash: outpoint.tx_hash, index };
  }
  if (!/^0x[0-9a-fA-F]{72}$/.test(outpoint)) return null;
  const le = outpoint.slice(66);
  const index = Number.parseInt(le.match(/../g)!.reverse().join(''), 16);
  return { txHash: outpoint.slice(0, 66), index };
}
