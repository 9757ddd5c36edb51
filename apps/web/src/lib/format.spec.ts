import { afterEach, describe, expect, it } from '@jest/globals';
import { setLanguage } from '@/lib/i18n';
import { formatLitres, formatMoney, formatNumber, formatWaterType, intlLocale } from './format';

// The tests run with the server's default currency, TZS (test/env.js).

afterEach(async () => {
  localStorage.clear();
  await setLanguage('en');
});

describe('formatMoney', () => {
  it('shows Tanzanian shillings whole, with the code and grouped thousands', () => {
    expect(formatMoney(1500)).toBe('TZS 1,500');
    expect(formatMoney(1234567)).toBe('TZS 1,234,567');
    expect(formatMoney(0)).toBe('TZS 0');
  });

  it('keeps cents that an amount does carry, rather than rounding money away', () => {
    expect(formatMoney(7499.5)).toBe('TZS 7,499.50');
    expect(formatMoney(0.1 + 0.2)).toBe('TZS 0.30');
  });

  it('lets the currency decide the fraction digits: shillings whole, dollars with cents', () => {
    expect(formatMoney(2500, 'KES')).toBe('KES 2,500');
    expect(formatMoney(2500, 'UGX')).toBe('UGX 2,500');
    expect(formatMoney(2500, 'USD')).toBe('USD 2,500.00');
    expect(formatMoney(12.5, 'USD')).toBe('USD 12.50');
  });

  it('uses a plain space where Intl puts a no-break space, so that text search finds it', () => {
    expect(formatMoney(1500)).not.toMatch(/[\u00a0\u202f]/);
  });

  it('shows a missing amount as zero', () => {
    expect(formatMoney(null)).toBe('TZS 0');
    expect(formatMoney(undefined)).toBe('TZS 0');
  });

  it('keeps the sign of a negative amount (an overdrawn card)', () => {
    expect(formatMoney(-250)).toBe('-TZS 250');
  });

  it('writes money in Kiswahili as East Africa writes it: the code first, comma thousands', async () => {
    await setLanguage('sw');
    expect(formatMoney(1500)).toBe('TZS 1,500');
    expect(formatMoney(1234567.25)).toBe('TZS 1,234,567.25');
    expect(formatMoney(-250)).toBe('-TZS 250');
  });
});

describe('the locale of the numbers', () => {
  it('is the language with the currency’s country where the engine knows it', () => {
    expect(intlLocale('sw', 'TZS')).toBe('sw-TZ');
    expect(intlLocale('sw', 'KES')).toBe('sw-KE');
    expect(intlLocale('en', 'TZS')).toBe('en-TZ');
    expect(intlLocale('en', 'USD')).toBe('en');
    // A language the app does not speak falls back to English.
    expect(intlLocale('fr', 'TZS')).toBe('en-TZ');
  });
});

describe('formatNumber and formatLitres', () => {
  it('show up to three decimals and the unit, in either language', async () => {
    expect(formatLitres(1.23456)).toBe('1.235 L');
    expect(formatLitres(2)).toBe('2 L');
    expect(formatLitres(null)).toBe('0 L');
    expect(formatNumber(12500)).toBe('12,500');
    await setLanguage('sw');
    expect(formatLitres(1234.5)).toBe('1,234.5 L');
    expect(formatNumber(12500)).toBe('12,500');
  });

  it('shortens large chart figures', () => {
    expect(formatNumber(12500, { compact: true, maximumFractionDigits: 1 })).toBe('12.5K');
  });
});

describe('formatWaterType', () => {
  it('names the known water types in the chosen language and shows any other value as sent', async () => {
    expect(['pure', 'fresh', 'cold'].map(formatWaterType)).toEqual(['Pure', 'Fresh', 'Cold']);
    expect(formatWaterType('sparkling')).toBe('sparkling');
    await setLanguage('sw');
    expect(['pure', 'fresh', 'cold'].map(formatWaterType)).toEqual(['Safi', 'Kawaida', 'Baridi']);
  });
});
