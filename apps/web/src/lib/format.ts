import { env } from '@/config/env';
import { i18n } from '@/lib/i18n';

/**
 * Numbers, money and litres in the chosen language (docs/web-app.md, "Behaviour"). The language picks the
 * words and separators; the country of the currency (CURRENCY, docs/operations.md, "Configuration") refines
 * them where the browser knows that variant (`sw-TZ`, `en-KE`), so that English reads as it does in East
 * Africa: day before month, a 24-hour clock.
 */
const CURRENCY_REGION: Record<string, string> = { TZS: 'TZ', KES: 'KE', UGX: 'UG', RWF: 'RW', BIF: 'BI' };

/**
 * Currencies whose cents are not in use: the shilling (and franc) amounts are whole. ISO 4217 still gives
 * TZS and KES two minor digits, which is what Intl shows unless told otherwise.
 */
const WHOLE_UNIT_CURRENCIES = new Set(['TZS', 'KES', 'UGX', 'RWF', 'BIF']);

const localeCache = new Map<string, string>();

/** The Intl locale for a language: `sw-TZ` where the engine has it, else the bare language. */
export function intlLocale(language: string = i18n.language, currency: string = env.currency): string {
  const key = `${language}|${currency}`;
  let locale = localeCache.get(key);
  if (!locale) {
    const base = language === 'sw' ? 'sw' : 'en';
    const region = CURRENCY_REGION[currency];
    const regional = region ? `${base}-${region}` : base;
    locale = Intl.NumberFormat.supportedLocalesOf([regional]).length ? regional : base;
    localeCache.set(key, locale);
  }
  return locale;
}

const formatters = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

// Intl puts a no-break space between code and number; a plain space reads and matches the same.
const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/** The fraction digits of an amount: none for whole-shilling currencies unless the amount has cents. */
function fractionDigits(amount: number, currency: string): number {
  if (!WHOLE_UNIT_CURRENCIES.has(currency)) {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  }
  // An amount that does carry cents (a balance registered with them) keeps them: money is never rounded away.
  return Math.round(amount * 100) % 100 === 0 ? 0 : 2;
}

/**
 * Money with the currency code, e.g. `TZS 1,500` (whole shillings) or `USD 12.50`. A missing amount is zero.
 */
export function formatMoney(amount: number | null | undefined, currency: string = env.currency): string {
  const value = amount ?? 0;
  const digits = fractionDigits(value, currency);
  const format = numberFormat(intlLocale(i18n.language, currency), {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return plainSpaces(format.format(value));
}

/** A plain number in the chosen language (counts, chart ticks); `compact` gives 1.2K-style figures. */
export function formatNumber(value: number, options: { maximumFractionDigits?: number; compact?: boolean } = {}) {
  const format = numberFormat(intlLocale(), {
    maximumFractionDigits: options.maximumFractionDigits ?? 3,
    ...(options.compact ? { notation: 'compact' } : {}),
  });
  return plainSpaces(format.format(value));
}

/** Litres, up to 3 decimals (docs/rest-api.md, "Conventions"). */
export function formatLitres(volume: number | null | undefined): string {
  return `${formatNumber(volume ?? 0)} L`;
}

const WATER_TYPES = ['pure', 'fresh', 'cold'] as const;
const isWaterType = (value: string): value is (typeof WATER_TYPES)[number] =>
  (WATER_TYPES as readonly string[]).includes(value);

/** A water type's name in the chosen language (Pure, Fresh, Cold); any other value as sent. */
export const formatWaterType = (waterType: string): string =>
  isWaterType(waterType) ? i18n.t(`ui.waterType.${waterType}`) : waterType;
