import { FakeNodeError } from './fake-invoice.js';

/** Strict parameter reading, as the node does it: bad hex is a -32602 "Invalid params". */

export const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;

const invalidParams = (data: string) => new FakeNodeError('Invalid params', -32602, data);

function parseHex(value: unknown, field: string): bigint {
  if (typeof value !== 'string') throw invalidParams(`invalid type: expected a hex string for \`${field}\``);
  if (!value.startsWith('0x')) throw invalidParams(`uint hex string does not start with 0x: ${value}`);
  if (!/^0x[0-9a-fA-F]+$/.test(value)) throw invalidParams(`invalid hex string: ${value}`);
  if (value.length > 3 && value[2] === '0') {
    throw invalidParams(`uint hex string starts with redundant leading zeros: ${value}`);
  }
  return BigInt(value);
}

export function reqHex(p: Record<string, unknown>, field: string): bigint {
  if (p[field] === undefined || p[field] === null) throw invalidParams(`missing field \`${field}\``);
  return parseHex(p[field], field);
}

export function optHex(p: Record<string, unknown>, field: string): bigint | null {
  return p[field] === undefined || p[field] === null ? null : parseHex(p[field], field);
}
