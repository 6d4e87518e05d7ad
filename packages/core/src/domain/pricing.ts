import Decimal from 'decimal.js';
import { invalid } from './errors.js';
import { type AssetCode, assetDecimals, MAX_MINOR_UNITS } from './money.js';

/** Enough significant digits for a 12-decimal price times a 1e15 quantity, exactly. */
const Exact = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_UP });

export const PRICING_MODELS = ['per_unit', 'fixed_per_request', 'per_1000_units'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];

/** Unit prices carry at most this many decimals (of the asset's whole unit). */
export const PRICE_MAX_DECIMALS = 12;
/** Quantities above this are refused: it keeps JSON numbers exact (below 2^53). */
export const MAX_QUANTITY = 1e15;

const PRICE_RE = /^\d{1,20}(?:\.\d{1,12})?$/;

/** Validates a unit price and returns its canonical form ("1.50" -> "1.5"). */
export function normalizePrice(price: string): string {
  if (typeof price !== 'string' || !PRICE_RE.test(price)) {
    throw invalid(`price must be a non-negative decimal string with at most ${PRICE_MAX_DECIMALS} decimals`);
  }
  return new Exact(price).toFixed();
}

/** Validates a usage quantity: a positive, finite number no larger than MAX_QUANTITY. */
export function assertQuantity(quantity: number): void {
  if (typeof quantity !== 'number' || !Number.isFinite(quantity) || quantity <= 0) {
    throw invalid('quantity must be a positive number');
  }
  if (quantity > MAX_QUANTITY) throw invalid(`quantity must be at most ${MAX_QUANTITY}`);
}

export interface PriceInput {
  pricingModel: PricingModel;
  /** Price in whole asset units, a decimal string of up to 12 decimals. */
  price: string;
  asset: AssetCode;
}

/**
 * The charge for `quantity` under a pricing rule, in the asset's minor units.
 *
 * Rounding: the exact product is computed with decimal.js and rounded ONCE, UP (towards
 * +infinity) to the asset's smallest unit, so usage with a positive price is never free.
 * - per_unit: price x quantity
 * - fixed_per_request: price, whatever the quantity
 * - per_1000_units: price x quantity / 1000
 */
export function computeCharge(rule: PriceInput, quantity: number): bigint {
  assertQuantity(quantity);
  const price = new Exact(rule.price);
  const q = new Exact(quantity);
  let whole: Decimal;
  switch (rule.pricingModel) {
    case 'per_unit':
      whole = price.times(q);
      break;
    case 'fixed_per_request':
      whole = price;
      break;
    case 'per_1000_units':
      whole = price.times(q).dividedBy(1000);
      break;
  }
  const minor = whole
    .times(new Exact(10).pow(assetDecimals(rule.asset)))
    .toDecimalPlaces(0, Decimal.ROUND_UP);
  const units = BigInt(minor.toFixed(0));
  if (units > MAX_MINOR_UNITS) throw invalid('the charge for this quantity is too large');
  return units;
}
