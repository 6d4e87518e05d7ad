import { formatAmount } from '../domain/money.js';
import type {
  ChannelHealth,
  ChannelSummary,
  LiveProof,
  NodeHealth,
  PreflightReport,
} from '../ports/channel-provider.js';
import type { SimulatedChannelHealth } from '../service/channel.js';

/**
 * Bodies of the channel diagnostics (SPEC.md endpoints 5-8). Node amounts (shannons) become CKB
 * decimal strings.
 */

const ckb = (shannons: bigint | null) => (shannons === null ? null : formatAmount(shannons, 'CKB'));
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const serializeChannel = (c: ChannelSummary) => ({
  ...c,
  localBalance: ckb(c.localBalance),
  remoteBalance: ckb(c.remoteBalance),
});

export const serializeNode = (n: NodeHealth) => ({
  ...n,
  channels: n.channels && { ...n.channels, readyChannels: n.channels.readyChannels.map(serializeChannel) },
});

/** Simulated mode has no nodes (payee null): the body is the service's answer as it is. */
export const serializeHealth = (h: ChannelHealth | SimulatedChannelHealth) =>
  h.payee === null ? h : { ...h, payee: serializeNode(h.payee), payer: h.payer && serializeNode(h.payer) };

export const serializePreflight = (r: PreflightReport) => ({
  ...r,
  invoice: r.invoice && {
    ...r.invoice,
    amount: ckb(r.invoice.amount),
    createdAt: iso(r.invoice.createdAt),
    expiresAt: iso(r.invoice.expiresAt),
  },
  route: r.route && { ...r.route, fee: ckb(r.route.fee) },
});

export const serializeProof = (p: LiveProof) => ({ ...p, channels: p.channels.map(serializeChannel) });
