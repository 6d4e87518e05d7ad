import { describe, expect, it } from 'vitest';
import { formatAmount, MAX_MINOR_UNITS, parseAmount } from '../src/domain/money.js';

describe('parseAmount / formatAmount', () => {
  it('converts decimal strings to shannons and back exactly', () => {
    expect(parseAmount('1', 'CKB')).toBe(100_000_000n);
    expect(parseAmount('12.5', 'CKB')).toBe(1_250_000_000n);
    expect(parseAmount('0.00000001', 'CKB')).toBe(1n);
    expect(parseAmount('50000000000', 'CKB')).toBe(5_000_000_000_000_000_000n);
    expect(formatAmount(5_000_000_000_000_000_001n, 'CKB')).toBe('50000000000.00000001');
    expect(formatAmount(1_250_000_000n, 'CKB')).toBe('12.5');
    expect(formatAmount(0n, 'CKB')).toBe('0');
    expect(formatAmount(-1n, 'CKB')).toBe('-0.00000001');
    expect(formatAmount(MAX_MINOR_UNITS, 'CKB')).toBe('92233720368.54775807');
  });

  it.each([
    ['', 'empty'],
    ['1e3', 'exponent'],
    ['1E-8', 'exponent'],
    ['NaN', 'NaN'],
    ['Infinity', 'infinity'],
    ['0.000000001', 'too many decimals'],
    ['-1', 'negative'],
    ['+1', 'plus sign'],
    ['1.', 'dangling point'],
    ['.5', 'no integer part'],
    [' 1', 'whitespace'],
    ['0x10', 'hex'],
    ['92233720368.54775808', 'above the BIGINT limit'],
    ['1'.repeat(40), 'huge'],
  ])('rejects %j (%s)', (value) => {
    expect(() => parseAmount(value, 'CKB')).toThrowError(
      expect.objectContaining({ code: 'validation_error' }),
    );
  });

  it('allows negatives only when asked', () => {
    expect(parseAmount('-0.5', 'CKB', { allowNegative: true })).toBe(-50_000_000n);
  });

  it('round-trips every shannon count it formats', () => {
    for (const units of [1n, 10n, 99_999_999n, 100_000_001n, 123_456_789_012_345_678n]) {
      expect(parseAmount(formatAmount(units, 'CKB'), 'CKB')).toBe(units);
    }
  });
});
