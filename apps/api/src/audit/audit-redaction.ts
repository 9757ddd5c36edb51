/**
 * The audit trail never holds secrets (docs/security.md): passwords (users' and Wi-Fi), password
 * hashes, device keys and their hashes, tokens. Redacted by key name, at any depth, at the one place
 * audit rows are written, so that no caller can forget it.
 */
const SECRET_KEY = /pass(word)?|hash|secret|token|device_?key|^key$/i;

export const REDACTED = '[redacted]';

export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEY.test(k) ? REDACTED : redact(v)]),
    );
  }
  return value;
}
