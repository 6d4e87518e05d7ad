import {
  type ChannelDiagnostics,
  type ChannelProvider,
  invalid,
  MeterError,
  type PaymentCheck,
} from '@meter/core';
import { createDiagnostics } from './diagnostics.js';
import { toHex } from './hex.js';
import { CURRENCY_PREFIXES, decodeWireInvoice, type FiberCurrency, isFiberCurrency } from './invoice.js';
import { createRpcClient } from './rpc-client.js';
import { getInvoiceResult, newInvoiceResult } from './wire.js';

export interface LiveProviderOptions {
  /** JSON-RPC URL of the payee node (CHANNEL_RPC_URL); keep it on the loopback address. */
  rpcUrl: string;
  /** JSON-RPC URL of a separate payer node for preflight dry runs (CHANNEL_PREFLIGHT_RPC_URL). */
  preflightRpcUrl?: string | null;
  /** Invoice currency (CHANNEL_CURRENCY): Fibt (testnet, default), Fibb (mainnet), Fibd (devnet). */
  currency?: string;
  /** Invoice lifetime in seconds (CHANNEL_INVOICE_EXPIRY_SECS); default 3600. */
  invoiceExpirySecs?: number;
  /** Per-call node timeout in milliseconds; default 10,000. */
  timeoutMs?: number;
  /** Block explorer base URL for funding transactions; default the CKB testnet explorer. */
  explorerUrl?: string;
}

/** Above this a CKB payment is refused by the node (non-UDT amounts must be below 2^64). */
const MAX_CKB_PAYMENT = 2n ** 64n - 1n;
const MAX_DESCRIPTION = 639;

/**
 * The live provider: invoices on the payee node (`new_invoice`, amount in hex shannons),
 * verification with `get_invoice` by payment hash, and operator diagnostics. The conversion
 * between the core's bigint shannons and the node's hex happens here and nowhere else.
 */
export function liveProvider(
  options: LiveProviderOptions,
): ChannelProvider & { diagnostics: ChannelDiagnostics } {
  const currency = options.currency ?? 'Fibt';
  if (!isFiberCurrency(currency)) {
    throw new Error(`currency must be Fibt (testnet), Fibb (mainnet) or Fibd (devnet), not "${currency}"`);
  }
  const invoiceExpirySecs = options.invoiceExpirySecs ?? 3600;
  if (!Number.isInteger(invoiceExpirySecs) || invoiceExpirySecs <= 0) {
    throw new Error('invoiceExpirySecs must be a positive integer');
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const payee = createRpcClient({ url: options.rpcUrl, timeoutMs, role: 'payee node' });
  const payer = options.preflightRpcUrl
    ? createRpcClient({ url: options.preflightRpcUrl, timeoutMs, role: 'payer node' })
    : null;
  const prefix = CURRENCY_PREFIXES[currency as FiberCurrency];

  const wrongAnswer = (message: string, details: Record<string, unknown>) =>
    new MeterError('provider_error', `The payee node gave an inconsistent answer: ${message}`, details);

  return {
    mode: 'live',
    invoiceExpirySecs,
    currency,
    allowsSimulatedPayment: false,

    async createPayment({ amount, asset, expiresAt, description }) {
      if (asset !== 'CKB') throw invalid(`The live provider settles CKB only, not ${asset}`);
      if (amount <= 0n || amount > MAX_CKB_PAYMENT) throw invalid('amount is out of range for a CKB invoice');
      // The invoice must not outlive the request: whole seconds left until expiresAt.
      const left = Math.floor((expiresAt.getTime() - Date.now()) / 1000);
      const expiry = Math.min(invoiceExpirySecs, Math.max(1, left));
      const result = await payee.call(
        'new_invoice',
        {
          amount: toHex(amount),
          currency,
          description: description.slice(0, MAX_DESCRIPTION),
          expiry: toHex(expiry),
        },
        newInvoiceResult,
      );
      const invoice = decodeWireInvoice(result.invoice);
      if (!result.invoice_address.toLowerCase().startsWith(prefix)) {
        throw wrongAnswer(`the invoice is not a ${currency} invoice`, { invoice: result.invoice_address });
      }
      if (invoice.amount !== amount) {
        throw wrongAnswer('the invoice amount differs from the request', {
          paymentHash: invoice.paymentHash,
        });
      }
      return { paymentUri: result.invoice_address, paymentHash: invoice.paymentHash };
    },

    async checkPayment(request): Promise<PaymentCheck> {
      if (!request.paymentHash) {
        throw new MeterError(
          'provider_error',
          'This payment request has no payment hash to look up on the node',
        );
      }
      const result = await payee.call('get_invoice', { payment_hash: request.paymentHash }, getInvoiceResult);
      const invoice = decodeWireInvoice(result.invoice);
      if (invoice.paymentHash.toLowerCase() !== request.paymentHash.toLowerCase()) {
        throw wrongAnswer('get_invoice returned another invoice', { paymentHash: request.paymentHash });
      }
      // Never credit an amount the node did not invoice for this request.
      if (invoice.amount !== request.amount) {
        throw wrongAnswer('the invoice amount differs from the request', {
          paymentHash: request.paymentHash,
        });
      }
      const invoiceStatus = result.status;
      switch (invoiceStatus.toLowerCase()) {
        case 'paid':
          return { status: 'paid', invoiceStatus };
        case 'expired':
          return { status: 'expired', invoiceStatus };
        case 'cancelled':
        case 'canceled':
          return { status: 'cancelled', invoiceStatus };
        default:
          // Open, Received (accepted but not settled) and anything unknown: not paid yet.
          return { status: 'pending', invoiceStatus };
      }
    },

    diagnostics: createDiagnostics({
      payee,
      payer,
      currency: currency as FiberCurrency,
      explorerUrl: options.explorerUrl ?? 'https://testnet.explorer.nervos.org',
    }),
  };
}
