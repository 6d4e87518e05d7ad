import { formatAmount } from '../../domain/money.js';
import type {
  ChannelHealth,
  ChannelSummary,
  LiveProof,
  NodeHealth,
  PreflightReport,
} from '../../ports/channel-provider.js';
import type { SimulatedChannelHealth } from '../../service/channel.js';
import type { Route } from '../router.js';

/** Operator diagnostics of SPEC.md endpoints 5-8. Node amounts (shannons) become CKB decimal strings. */

const ckb = (shannons: bigint | null) => (shannons === null ? null : formatAmount(shannons, 'CKB'));
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const serializeChannel = (c: ChannelSummary) => ({
  ...c,
  localBalance: ckb(c.localBalance),
  remoteBalance: ckb(c.remoteBalance),
});

const serializeNode = (n: NodeHealth) => ({
  ...n,
  channels: n.channels && { ...n.channels, readyChannels: n.channels.readyChannels.map(serializeChannel) },
});

const serializeHealth = (h: ChannelHealth | SimulatedChannelHealth) =>
  h.mode === 'simulated' || h.payee === null
    ? h
    : { ...h, payee: serializeNode(h.payee), payer: h.payer && serializeNode(h.payer) };

const serializePreflight = (r: PreflightReport) => ({
  ...r,
  invoice: r.invoice && {
    ...r.invoice,
    amount: ckb(r.invoice.amount),
    createdAt: iso(r.invoice.createdAt),
    expiresAt: iso(r.invoice.expiresAt),
  },
  route: r.route && { ...r.route, fee: ckb(r.route.fee) },
});

const serializeProof = (p: LiveProof) => ({ ...p, channels: p.channels.map(serializeChannel) });

export const channelRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/channel/health',
    auth: 'jwt',
    async handle({ meter }) {
      return { body: serializeHealth(await meter.channelHealth()) };
    },
  },
  {
    method: 'POST',
    path: '/api/channel/preflight',
    auth: 'jwt',
    async handle({ meter, json }) {
      return { body: serializePreflight(await meter.preflightInvoice(json() as never)) };
    },
  },
  {
    method: 'POST',
    path: '/api/channel/translate-error',
    auth: 'jwt',
    async handle({ meter, json }) {
      return { body: meter.translateNodeError(json() as never) };
    },
  },
  {
    method: 'GET',
    path: '/api/channel/live-proof',
    auth: 'jwt',
    async handle({ meter }) {
      return { body: serializeProof(await meter.liveProof()) };
    },
  },
];
