import { invalid } from './errors.js';

/**
 * Assets the library knows. Amounts inside are bigint counts of the asset's smallest unit
 * (CKB: 8 decimals, 1 CKB = 100,000,000 shannons); they cross the edges as decimal strings.
 */
export const ASSETS = {
  CKB: { code: 'CKB', decimals: 8 },
} as const;

export type AssetCode = keyof typeof ASSETS;
export const ASSET_CODES = Object.keys(ASSETS) as AssetCode[];
export const DEFAULT_ASSET: AssetCode = 'CKB';

/** Largest amount any stored value may hold: the BIGINT column limit, 2^63 - 1. */
export const MAX_MINOR_UNITS = 9_223_372_036_854_775_807n;

export function isAssetCode(value: string): value is AssetCode {
  return Object.hasOwn(ASSETS, value);
}

export function assetDecimals(asset: AssetCode): number {
  return ASSETS[asset].decimals;
}

const DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Parses a decimal string ("12.5", "0.00000001") into minor units. Rejects exponents, NaN,
 * empty strings, signs other than a leading minus, more decimals than the asset has, values
 * above MAX_MINOR_UNITS, and negatives unless allowed.
 */
export function parseAmount(value: string, asset: AssetCode, opts: { allowNegative?: boolean } = {}): bigint {
  const match = typeof value === 'string' ? DECIMAL_RE.exec(value) : null;
  if (!match) throw invalid(`"${String(value).slice(0, 40)}" is not a decimal amount`);
  const [, sign, whole, frac = ''] = match;
  const decimals = assetDecimals(asset);
  if (frac.length > decimals) {
    throw invalid(`${asset} amounts have at most ${decimals} decimal places`);
  }
  const units = BigInt(whole! + frac.padEnd(decimals, '0'));
  if (units > MAX_MINOR_UNITS) throw invalid('amount is too large');
  if (sign === '-') {
    if (!opts.allowNegative && units !== 0n) throw invalid('amount must not be negative');
    return -units;
  }
  return units;
}

/** Formats minor units as the shortest exact decimal string: 1250000000n CKB -> "12.5". */
export function formatAmount(units: bigint, asset: AssetCode): string {
  const decimals = assetDecimals(asset);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}
