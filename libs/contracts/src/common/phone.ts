/**
 * Default country for local phone numbers: Tanzania (+255), as the web app's phone placeholder shows (docs/web-app.md,
 * "Screens").
 */
export const DEFAULT_COUNTRY_CODE = '255';

/**
 * Normalises a phone number to E.164. Accepts `+255712345678`, `255712345678`, `0712345678`
 * (local form, default country) and ignores spaces, dashes, dots and parentheses.
 * Returns null when the input cannot be a phone number.
 */
export function normalizePhone(input: string, countryCode = DEFAULT_COUNTRY_CODE): string | null {
  const trimmed = input.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  let e164: string;
  if (trimmed.startsWith('+')) e164 = digits;
  else if (trimmed.startsWith('00')) e164 = digits.slice(2);
  else if (digits.startsWith('0')) e164 = countryCode + digits.slice(1);
  else if (digits.startsWith(countryCode) && digits.length >= countryCode.length + 8) e164 = digits;
  else if (digits.length === 9) e164 = countryCode + digits;
  else e164 = digits;
  // E.164: at most 15 digits; a national number shorter than 7 digits is not a phone.
  if (e164.length < 8 || e164.length > 15 || e164.startsWith('0')) return null;
  return `+${e164}`;
}

/** True when the identifier is an email address rather than a phone number. */
export function looksLikeEmail(identifier: string): boolean {
  return identifier.includes('@');
}
