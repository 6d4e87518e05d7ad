import { z } from 'zod';

/**
 * The node's number encoding: every u32/u64/u128 is a `0x`-prefixed hex string without
 * leading zeros. Amounts are bigint shannons; JS numbers would lose u128 precision.
 */

/** Encodes a non-negative integer as the node expects: `0x0`, `0x5f5e100`. */
export function toHex(value: bigint | number): string {
  const n = typeof value === 'bigint' ? value : BigInt(value);
  if (n < 0n) throw new RangeError(`cannot encode a negative number as node hex: ${n}`);
  return `0x${n.toString(16)}`;
}

const HEX_RE = /^0x[0-9a-fA-F]+$/;

/** Decodes a node hex number (any case; leading zeros tolerated on input). */
export function fromHex(value: string): bigint {
  if (!HEX_RE.test(value)) throw new RangeError(`not a 0x-prefixed hex number: ${value.slice(0, 40)}`);
  return BigInt(value);
}

/** A node hex number in a response, as bigint. */
export const hexBigint = z.string().regex(HEX_RE, 'expected a 0x-prefixed hex number').transform(BigInt);

/** A node hex number small enough for a JS number (counts, timestamps in ms). */
export const hexNumber = hexBigint.transform((n) => Number(n));
