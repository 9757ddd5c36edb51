import { describe, expect, it } from '@jest/globals';
import { amountToCents, centsToAmount, centsToDecimal, toCents } from './money.js';

describe('money as integer cents', () => {
  it('converts an amount with up to two decimals to exact cents, whatever binary floating point does', () => {
    expect(amountToCents(0.29)).toBe(29);
    expect(amountToCents(1_500.5)).toBe(150_050);
    expect(amountToCents(19.99)).toBe(1_999);
    expect(amountToCents(999_999_999_999.99)).toBe(99_999_999_999_999);
  });

  it('writes cents as a numeric literal without floating point, the sign in front', () => {
    expect(centsToDecimal(-1_234)).toBe('-12.34');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(-5)).toBe('-0.05');
    expect(centsToDecimal(99_999_999_999_999)).toBe('999999999999.99');
  });

  it('refuses to write anything but a whole number of cents', () => {
    expect(() => centsToDecimal(12.5)).toThrow('not a whole number of cents');
    expect(() => centsToDecimal(2 ** 53)).toThrow();
  });

  it('reads PostgreSQL numeric text back to the same cents', () => {
    expect(toCents('12.34')).toBe(1_234);
    expect(toCents('-0.05')).toBe(-5);
    expect(toCents('7')).toBe(700);
    expect(toCents('7.5')).toBe(750);
    for (const cents of [0, 1, -1, 99, 100, 123_456_789, -99_999_999_999_999]) {
      expect(toCents(centsToDecimal(cents))).toBe(cents);
    }
  });

  it('gives the contract’s JSON number for cents', () => {
    expect(centsToAmount(150_050)).toBe(1_500.5);
    expect(centsToAmount(-5)).toBe(-0.05);
  });
});
