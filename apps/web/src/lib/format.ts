import { env } from '@/config/env';

const money = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: env.currency,
  currencyDisplay: 'code',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

const litres = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });

/** Money with the currency (CURRENCY, TZS by default: docs/operations.md, "Configuration"), e.g. `TZS 1,500.00`. */
export function formatMoney(amount: number | null | undefined): string {
  // Intl puts a no-break space between code and number; a plain space reads and matches the same.
  return money.format(amount ?? 0).replace(/\u00a0/g, ' ');
}

/** Litres, up to 3 decimals (docs/rest-api.md, "Conventions"). */
export function formatLitres(volume: number | null | undefined): string {
  return `${litres.format(volume ?? 0)} L`;
}

const WATER_TYPE_LABELS: Record<string, string> = { pure: 'Pure', fresh: 'Fresh', cold: 'Cold' };

export const formatWaterType = (waterType: string): string => WATER_TYPE_LABELS[waterType] ?? waterType;
