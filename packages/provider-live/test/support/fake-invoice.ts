import { createHash } from 'node:crypto';

/**
 * Invoice strings for the fake nodes. They look like the real ones (`fibt` + amount in
 * shannons + separator `1` + bech32-charset data) and decode on any fake node; a changed
 * character fails the checksum like a real invoice does.
 */

export type FakeCurrency = 'Fibt' | 'Fibb' | 'Fibd';

export interface FakeInvoiceData {
  currency: FakeCurrency;
  amount: bigint | null;
  paymentHash: string;
  payee: string;
  /** Creation time, ms since epoch. */
  timestamp: number;
  /** Seconds; null = never expires. */
  expiry: number | null;
  description: string | null;
}

/** A node error as the fake server answers it: JSON-RPC code and message. */
export class FakeNodeError extends Error {
  constructor(
    message: string,
    readonly code = -32000,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const PREFIX: Record<FakeCurrency, string> = { Fibt: 'fibt', Fibb: 'fibb', Fibd: 'fibd' };

function toWords(bytes: Buffer): string {
  let acc = 0;
  let bits = 0;
  let out = '';
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += CHARSET[(acc >> bits) & 31];
    }
  }
  if (bits > 0) out += CHARSET[(acc << (5 - bits)) & 31];
  return out;
}

function fromWords(words: string): Buffer {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  for (const ch of words) {
    acc = ((acc << 5) | CHARSET.indexOf(ch)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Buffer.from(out);
}

const checksum = (body: string) =>
  [...createHash('sha256').update(body).digest().subarray(0, 6)].map((b) => CHARSET[b & 31]).join('');

export function encodeInvoice(d: FakeInvoiceData): string {
  const hrp = `${PREFIX[d.currency]}${d.amount ?? ''}`;
  const payload = JSON.stringify({
    h: d.paymentHash,
    p: d.payee,
    t: d.timestamp,
    x: d.expiry,
    d: d.description,
  });
  const body = `${hrp}1${toWords(Buffer.from(payload, 'utf8'))}`;
  return body + checksum(body);
}

/** Decodes like parse_invoice; throws the node's messages for malformed strings. */
export function decodeInvoice(invoice: string): FakeInvoiceData {
  const s = invoice.trim();
  const sep = s.lastIndexOf('1');
  if (sep < 1) throw new FakeNodeError('Bech32 error: missing human-readable separator, "1"');
  const hrp = s.slice(0, sep);
  const data = s.slice(sep + 1);
  const currency = (Object.keys(PREFIX) as FakeCurrency[]).find((c) => hrp.startsWith(PREFIX[c]));
  if (!currency)
    throw new FakeNodeError(`Parsing failed with malformed HRP: Unknown currency: ${hrp.slice(0, 10)}`);
  const digits = hrp.slice(4);
  if (digits !== '' && !/^\d+$/.test(digits))
    throw new FakeNodeError(`Parsing failed with malformed HRP: ${hrp}`);
  if (data.length < 8) throw new FakeNodeError('Too short data part');
  if ([...data].some((ch) => !CHARSET.includes(ch)))
    throw new FakeNodeError('Bech32 error: invalid character');
  if (checksum(s.slice(0, -6)) !== s.slice(-6)) throw new FakeNodeError('Bech32 error: invalid checksum');
  const p = JSON.parse(fromWords(data.slice(0, -6)).toString('utf8'));
  return {
    currency,
    amount: digits === '' ? null : BigInt(digits),
    paymentHash: p.h,
    payee: p.p,
    timestamp: p.t,
    expiry: p.x,
    description: p.d,
  };
}

const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;

/** The node's CkbInvoice object (v0.8 snake_case attrs). */
export function wireInvoice(d: FakeInvoiceData) {
  const attrs: Record<string, unknown>[] = [];
  if (d.description !== null) attrs.push({ description: d.description });
  if (d.expiry !== null) attrs.push({ expiry_time: hex(d.expiry) });
  attrs.push({ final_htlc_minimum_expiry_delta: '0x927c00' });
  attrs.push({ hash_algorithm: 'ckb_hash' });
  attrs.push({ payee_public_key: d.payee });
  return {
    currency: d.currency,
    amount: d.amount === null ? null : hex(d.amount),
    signature: createHash('sha256').update(d.paymentHash).digest('hex'),
    data: { timestamp: hex(d.timestamp), payment_hash: d.paymentHash, attrs },
  };
}
