import type { RpcClient } from './rpc-client.js';
import { parseInvoiceResult, type WireInvoice } from './wire.js';

/**
 * Invoice strings: bech32m, lowercase; the human-readable part is the network prefix plus an
 * optional decimal amount in shannons, then the separator `1` and the data
 * (`fibt100000000` + `1` + data for 1 CKB on testnet).
 */

export const CURRENCY_PREFIXES = { Fibt: 'fibt', Fibb: 'fibb', Fibd: 'fibd' } as const;
export type FiberCurrency = keyof typeof CURRENCY_PREFIXES;
export const FIBER_CURRENCIES = Object.keys(CURRENCY_PREFIXES) as FiberCurrency[];

export const NETWORK_OF: Record<FiberCurrency, 'testnet' | 'mainnet' | 'devnet'> = {
  Fibt: 'testnet',
  Fibb: 'mainnet',
  Fibd: 'devnet',
};

export function isFiberCurrency(value: string): value is FiberCurrency {
  return Object.hasOwn(CURRENCY_PREFIXES, value);
}

/** The currency an invoice string is for, from its prefix; null when it is not an invoice. */
export function invoiceCurrency(invoice: string): FiberCurrency | null {
  const lower = invoice.trim().toLowerCase();
  return FIBER_CURRENCIES.find((c) => lower.startsWith(CURRENCY_PREFIXES[c])) ?? null;
}

/** The amount written in the invoice's prefix (shannons), or null when it has none or is malformed. */
export function invoicePrefixAmount(invoice: string): bigint | null {
  const lower = invoice.trim().toLowerCase();
  const currency = invoiceCurrency(lower);
  const separator = lower.lastIndexOf('1');
  if (!currency || separator < 4) return null;
  const digits = lower.slice(4, separator);
  return /^\d+$/.test(digits) ? BigInt(digits) : null;
}

export interface DecodedInvoice {
  currency: string;
  amount: bigint | null;
  paymentHash: string;
  payee: string | null;
  description: string | null;
  createdAt: Date;
  /** Null when the invoice has no expiry attribute (it never expires). */
  expiresAt: Date | null;
}

/** One attribute, in the v0.8 snake_case spelling or the old PascalCase one. */
function attr(attrs: Record<string, unknown>[], snake: string, pascal: string): unknown {
  for (const a of attrs) {
    if (snake in a) return a[snake];
    if (pascal in a) return a[pascal];
  }
  return undefined;
}

function expirySeconds(value: unknown): number | null {
  if (typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value)) return Number(BigInt(value));
  if (typeof value === 'number') return value;
  if (value && typeof value === 'object' && 'secs' in value) return Number((value as { secs: unknown }).secs);
  return null;
}

/** The node's invoice object in the shape the service uses. */
export function decodeWireInvoice(invoice: WireInvoice): DecodedInvoice {
  const { attrs, timestamp, payment_hash } = invoice.data;
  const expiry = expirySeconds(attr(attrs, 'expiry_time', 'ExpiryTime'));
  const description = attr(attrs, 'description', 'Description');
  const payee = attr(attrs, 'payee_public_key', 'PayeePublicKey');
  return {
    currency: invoice.currency,
    amount: invoice.amount,
    paymentHash: payment_hash.startsWith('0x') ? payment_hash : `0x${payment_hash}`,
    payee: typeof payee === 'string' ? payee : null,
    description: typeof description === 'string' ? description : null,
    createdAt: new Date(timestamp),
    expiresAt: expiry === null ? null : new Date(timestamp + expiry * 1000),
  };
}

/** Decodes an invoice string on a node with `parse_invoice` (pure decode, nothing stored). */
export async function parseInvoice(rpc: RpcClient, invoice: string): Promise<DecodedInvoice> {
  const result = await rpc.call('parse_invoice', { invoice }, parseInvoiceResult);
  return decodeWireInvoice(result.invoice);
}
