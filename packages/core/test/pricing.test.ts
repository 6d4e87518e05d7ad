import { describe, expect, it } from 'vitest';
import { computeCharge, normalizePrice } from '../src/domain/pricing.js';

const rule = (pricingModel: 'per_unit' | 'fixed_per_request' | 'per_1000_units', price: string) => ({
  pricingModel,
  price,
  asset: 'CKB' as const,
});

describe('computeCharge', () => {
  it('per_unit multiplies price by quantity', () => {
    expect(computeCharge(rule('per_unit', '0.5'), 3)).toBe(150_000_000n);
    expect(computeCharge(rule('per_unit', '1'), 0.25)).toBe(25_000_000n);
  });

  it('fixed_per_request ignores the quantity', () => {
    expect(computeCharge(rule('fixed_per_request', '2'), 1)).toBe(200_000_000n);
    expect(computeCharge(rule('fixed_per_request', '2'), 999)).toBe(200_000_000n);
  });

  it('per_1000_units divides by a thousand', () => {
    expect(computeCharge(rule('per_1000_units', '0.002'), 1500)).toBe(300_000n);
  });

  it('rounds once, up, to the smallest unit', () => {
    // 0.000000000001 CKB x 1 = 1e-12 CKB -> 1 shannon, never free.
    expect(computeCharge(rule('per_unit', '0.000000000001'), 1)).toBe(1n);
    // 0.000000015 x 1 = 1.5 shannons -> 2.
    expect(computeCharge(rule('per_unit', '0.000000015'), 1)).toBe(2n);
    // Exactly representable amounts are not rounded: 0.00000001 x 3 = 3 shannons.
    expect(computeCharge(rule('per_unit', '0.00000001'), 3)).toBe(3n);
    // Binary-unfriendly quantities are exact: 0.1 + 0.2 style traps do not apply.
    expect(computeCharge(rule('per_unit', '0.3'), 0.1)).toBe(3_000_000n);
  });

  it('is zero for a zero price', () => {
    expect(computeCharge(rule('per_unit', '0'), 10)).toBe(0n);
  });

  it('refuses charges that do not fit in a BIGINT', () => {
    expect(() => computeCharge(rule('per_unit', '99999999999999999999'), 1e15)).toThrowError(
      expect.objectContaining({ code: 'validation_error' }),
    );
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e16])('refuses quantity %s', (q) => {
    expect(() => computeCharge(rule('per_unit', '1'), q)).toThrowError(
      expect.objectContaining({ code: 'validation_error' }),
    );
  });
});

describe('normalizePrice', () => {
  it('keeps up to 12 decimals and canonicalises', () => {
    expect(normalizePrice('1.50')).toBe('1.5');
    expect(normalizePrice('0.000000000001')).toBe('0.000000000001');
  });
  it.each(['0.0000000000001', '-1', '1e-3', 'abc', ''])('rejects %j', (p) => {
    expect(() => normalizePrice(p)).toThrowError(expect.objectContaining({ code: 'validation_error' }));
  });
});
