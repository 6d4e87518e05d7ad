import type { AssetCode } from '../domain/money.js';
import type { NodeErrorTranslation } from '../domain/node-errors.js';
import type { PaymentRequest, ProviderMode } from '../domain/types.js';

export interface CreatePaymentInput {
  paymentRequestId: string;
  amount: bigint;
  asset: AssetCode;
  /** The request's expiry; the provider's invoice MUST NOT outlive it. */
  expiresAt: Date;
  description: string;
}

export interface CreatedPayment {
  /** A simulated URI, or the encoded invoice in live mode. */
  paymentUri: string;
  paymentHash: string | null;
}

export type PaymentCheck =
  | { status: 'paid'; invoiceStatus: string }
  | { status: 'pending'; invoiceStatus: string }
  | { status: 'expired' | 'cancelled'; invoiceStatus: string };

/**
 * Where payment requests are settled. A provider MUST report `paid` only for a payment
 * that has really settled; the store credits exactly once whatever the provider reports.
 *
 * Failures of the settlement side MUST be thrown as `MeterError` with the code
 * `provider_unavailable` (cannot reach it), `provider_timeout` (no answer in time) or
 * `provider_error` (it answered with an error or nonsense), a readable message, and the
 * remote side's own message in `details`. Anything else thrown is treated as a bug (500).
 *
 * Implementations: `simulatedProvider()` (@meter/provider-sim), `liveProvider()`
 * (@meter/provider-live). A hosted node or an LSP plugs in the same way: see docs/live-mode.md.
 */
export interface ChannelProvider {
  readonly mode: ProviderMode;
  /** Invoice lifetime in seconds; payment requests expire after it. */
  readonly invoiceExpirySecs: number;
  /** Currency code placed in invoices. */
  readonly currency: string;
  /**
   * Creates the payment on the settlement side. MUST return a `paymentUri` unique to this
   * request and MUST NOT create anything that can be paid after `input.expiresAt`. MUST refuse
   * (`validation_error`) an asset it cannot settle.
   */
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /**
   * Asks the settlement side whether the request has been paid. MUST answer `paid` only for a
   * settled payment of the request's full amount, MUST NOT change anything, and MUST give the
   * same answer to every caller racing on the same request.
   */
  checkPayment(request: PaymentRequest): Promise<PaymentCheck>;
  /** Whether `simulate-paid` may confirm requests of this provider (true only when simulated). */
  readonly allowsSimulatedPayment: boolean;
  /** Operator diagnostics of a provider that runs on channel nodes; absent when there is no node. */
  readonly diagnostics?: ChannelDiagnostics;
}

/**
 * Operator diagnostics (`/api/channel/*`). Amounts are bigint shannons; the HTTP layer
 * formats them. None of these is a step of the payment flow, and none changes node state.
 */
export interface ChannelDiagnostics {
  /**
   * Reachability and state of the payee node and, when configured, the payer node. MUST NOT
   * throw because a node is down or slow: an unreachable node is reported as such.
   */
  health(): Promise<ChannelHealth>;
  /**
   * Checks an invoice before anyone pays it: decodes it, compares its network with the
   * configured one, and dry-runs the payment from the payer node. MUST NOT move money, and
   * MUST report node failures inside the report (translated), not throw them.
   */
  preflight(invoice: string): Promise<PreflightReport>;
  /**
   * Each open channel of the payee node with its on-chain funding transaction. MUST throw
   * the provider error codes when the node cannot answer.
   */
  liveProof(): Promise<LiveProof>;
}

export interface ChannelSummary {
  channelId: string;
  /** The peer's node id (pubkey; peer_id on old nodes). */
  peerId: string | null;
  /** Normalised state name, e.g. `ChannelReady`. */
  state: string;
  stateFlags: string[];
  ready: boolean;
  localBalance: bigint;
  remoteBalance: bigint;
  /** The funding transaction hash (`0x` + 64 hex), null until the funding tx exists. */
  fundingTxHash: string | null;
  fundingOutputIndex: number | null;
  /** Block explorer link of the funding transaction, when there is one. */
  explorerUrl: string | null;
  isPublic: boolean | null;
  enabled: boolean | null;
}

export interface NodeHealth {
  role: 'payee' | 'payer';
  reachable: boolean;
  latencyMs: number | null;
  /** Why the node could not be asked (translated), when it could not. */
  error: (NodeErrorTranslation & { code: string; message: string }) | null;
  node: {
    nodeId: string | null;
    version: string | null;
    chainHash: string | null;
    network: 'testnet' | 'mainnet' | 'unknown' | null;
    peersCount: number | null;
    channelCount: number | null;
    pendingChannelCount: number | null;
  } | null;
  channels: { total: number; ready: number; pending: number; readyChannels: ChannelSummary[] } | null;
}

export interface ChannelHealth {
  mode: ProviderMode;
  /** Payee reachable with at least one ready channel, and the payer (if configured) reachable. */
  ok: boolean;
  currency: string;
  payee: NodeHealth;
  /** Null when no payer node (CHANNEL_PREFLIGHT_RPC_URL) is configured. */
  payer: NodeHealth | null;
  /** Readable problems an operator should fix, e.g. no ready channel. */
  warnings: string[];
}

export type PreflightCheckId = 'format' | 'network' | 'decode' | 'expiry' | 'route';

export interface PreflightCheck {
  id: PreflightCheckId;
  status: 'pass' | 'fail' | 'skip';
  message: string;
  /** The node's failure, translated, when a node call failed. */
  error?: NodeErrorTranslation & { raw: string };
}

export interface PreflightReport {
  /** Every check that ran passed and the route check ran. */
  ok: boolean;
  expectedNetwork: string;
  invoice: {
    network: string | null;
    currency: string | null;
    amount: bigint | null;
    paymentHash: string | null;
    payee: string | null;
    description: string | null;
    createdAt: Date | null;
    expiresAt: Date | null;
  } | null;
  route: { fee: bigint; status: string } | null;
  checks: PreflightCheck[];
}

export interface LiveProof {
  explorerUrl: string;
  channels: ChannelSummary[];
}
