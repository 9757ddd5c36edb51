import { describe, expect, it } from '@jest/globals';
import { auditQuerySchema } from '../audit/audit.schema.js';
import { insertTariffsRequestSchema } from '../config/config.schema.js';
import { saleSchema } from '../sale/sale.schema.js';
import { hasAtMostDecimals, isoDateSchema, MONEY_MAX, moneySchema, positiveMoneySchema } from './common.schema.js';

describe('moneySchema', () => {
  it.each([0, 1, 12.5, 12.05, 0.01, 1e3, MONEY_MAX, -MONEY_MAX, 999_999_999_999.9])(
    'accepts the JSON number %p',
    (n) => {
      expect(moneySchema.parse(n)).toBe(n);
    },
  );

  it.each([
    true,
    false,
    [2],
    '0x3',
    '0b100',
    '1e3',
    '+7',
    '12.50',
    '7',
    '',
    null,
    undefined,
    {},
    1.001,
    0.125,
    1e-7,
    1e12,
    MONEY_MAX + 0.01,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ])('refuses %p', (value) => {
    expect(moneySchema.safeParse(value).success).toBe(false);
  });

  it('positive money refuses 0 and negatives', () => {
    expect(positiveMoneySchema.safeParse(0).success).toBe(false);
    expect(positiveMoneySchema.safeParse(-1).success).toBe(false);
    expect(positiveMoneySchema.parse(0.01)).toBe(0.01);
  });
});

describe('hasAtMostDecimals', () => {
  it('reads the decimals a JSON number was written with, even near the largest amount', () => {
    expect(hasAtMostDecimals(999_999_999_999.99, 2)).toBe(true);
    expect(hasAtMostDecimals(999_999_999.999, 3)).toBe(true);
    expect(hasAtMostDecimals(999_999_999.999, 2)).toBe(false);
    expect(hasAtMostDecimals(0.1 + 0.2, 2)).toBe(false); // 0.30000000000000004
    expect(hasAtMostDecimals(-12.5, 2)).toBe(true);
    expect(hasAtMostDecimals(1e21, 2)).toBe(false);
  });
});

describe('isoDateSchema', () => {
  it.each(['2000-01-01', '2024-02-29', '9999-12-31'])('accepts %s', (d) => {
    expect(isoDateSchema.parse(d)).toBe(d);
  });

  it.each(['0000-01-01', '0001-01-01', '1999-12-31', '2023-02-29', '2024-13-01', '10000-01-01', '2024-1-1'])(
    'refuses %s',
    (d) => {
      expect(isoDateSchema.safeParse(d).success).toBe(false);
    },
  );

  it('bounds the audit filter’s instants to the same years', () => {
    expect(auditQuerySchema.safeParse({ from: '0000-01-01T00:00:00Z' }).success).toBe(false);
    expect(auditQuerySchema.safeParse({ to: '0000-06-01T12:00:00+03:00' }).success).toBe(false);
    expect(auditQuerySchema.safeParse({ from: '2024-06-01T12:00:00+03:00', to: '9999-12-31' }).success).toBe(true);
  });
});

describe('tariffs and calibrations', () => {
  const base = { espId: 'ESP-1', coldTariffs: '12.50', freshTariffs: 30, coldCalb: '1.125', freshCalb: 0.875 };

  it('take numbers and plain decimal strings with the column’s decimals', () => {
    expect(insertTariffsRequestSchema.parse(base)).toEqual({ ...base, coldTariffs: 12.5, coldCalb: 1.125 });
  });

  it.each([
    ['coldTariffs', '0x3'],
    ['coldTariffs', '1e3'],
    ['coldTariffs', '+7'],
    ['coldTariffs', '-1'],
    ['coldTariffs', '12.345'],
    ['freshTariffs', 12.345],
    ['freshTariffs', -1],
    ['freshTariffs', true],
    ['coldCalb', '1.2345'],
    ['freshCalb', 0.0001],
    ['freshCalb', 'Infinity'],
  ])('refuse %s = %p', (field, value) => {
    expect(insertTariffsRequestSchema.safeParse({ ...base, [field]: value }).success).toBe(false);
  });
});

describe('sale price and volume', () => {
  const sale = { eventId: 'e1', kind: 'coin', price: 10, volume: 1.5, waterType: 'pure' };

  it('take JSON numbers with at most 2 and 3 decimals, floating-point noise of the firmware included', () => {
    expect(saleSchema.safeParse({ ...sale, price: 999_999_999.99, volume: 1.125 }).success).toBe(true);
    expect(saleSchema.safeParse({ ...sale, price: 0.1 + 0.2 }).success).toBe(true);
    for (const bad of [{ price: '12.50' }, { price: true }, { price: 1.001 }, { volume: '1.5' }, { volume: 1.0001 }]) {
      expect(saleSchema.safeParse({ ...sale, ...bad }).success).toBe(false);
    }
  });
});
