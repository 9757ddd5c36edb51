import { describe, expect, it } from '@jest/globals';
import { formatLitres, formatMoney, formatWaterType } from './format';

// The browser's locale decides separators and the code's place; what holds in every locale is asserted.
const digits = (text: string) => text.replace(/\D/g, '');

describe('formatMoney', () => {
  it('shows the currency code and exactly two decimals', () => {
    const text = formatMoney(1500);
    expect(text).toContain('TZS');
    expect(digits(text)).toBe('150000');
    expect(digits(formatMoney(0.1 + 0.2))).toBe('030');
  });

  it('uses a plain space where Intl puts a no-break space, so that text search finds it', () => {
    expect(formatMoney(1500)).not.toMatch(/\u00a0/);
  });

  it('shows a missing amount as zero', () => {
    expect(formatMoney(null)).toBe(formatMoney(0));
    expect(formatMoney(undefined)).toBe(formatMoney(0));
    expect(digits(formatMoney(null))).toBe('000');
  });

  it('keeps the sign of a negative amount (an overdrawn card)', () => {
    expect(formatMoney(-250)).toMatch(/-|−|\(/);
  });
});

describe('formatLitres', () => {
  it('shows up to three decimals and the unit', () => {
    expect(formatLitres(1.23456)).toMatch(/ L$/);
    expect(digits(formatLitres(1.23456))).toBe('1235');
    expect(digits(formatLitres(2))).toBe('2');
    expect(formatLitres(null)).toBe(formatLitres(0));
  });
});

describe('formatWaterType', () => {
  it('names the known water types and shows any other value as sent', () => {
    expect(['pure', 'fresh', 'cold'].map(formatWaterType)).toEqual(['Pure', 'Fresh', 'Cold']);
    expect(formatWaterType('sparkling')).toBe('sparkling');
  });
});
