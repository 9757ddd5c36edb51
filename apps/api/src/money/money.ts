/** Money as integer cents: exact conversions to and from PostgreSQL numeric(14,2) and the contracts' JSON numbers. */

/** Exact conversion of integer cents to a numeric literal (`-1234` → `-12.34`), with no floating point. */
export function centsToDecimal(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not a whole number of cents: ${value}`);
  const abs = Math.abs(value);
  return `${value < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Integer cents of a money amount that has at most 2 decimals (checked by the contracts' moneySchema). */
export function amountToCents(amount: number): number {
  return Math.round(amount * 100);
}

/** Cents as the JSON number of the contract (money is a JSON number with at most 2 decimals). */
export function centsToAmount(value: number): number {
  return Number(centsToDecimal(value));
}

/** Exact conversion of a numeric(14,2) string to integer cents (no floating-point arithmetic on money). */
export function toCents(value: string): number {
  const negative = value.startsWith('-');
  const [whole, frac = ''] = value.replace('-', '').split('.');
  const result = Number(whole) * 100 + Number((frac + '00').slice(0, 2));
  return negative ? -result : result;
}
