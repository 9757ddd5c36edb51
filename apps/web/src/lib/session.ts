import { useSyncExternalStore } from 'react';
import { SESSION_EXPIRY_MS } from '@wv/contracts';

/** Client storage keys (token, role, tokenExpiry in milliseconds; docs/web-app.md, "Behaviour"). */
const TOKEN_KEY = 'token';
const ROLE_KEY = 'role';
const EXPIRY_KEY = 'tokenExpiry';
/** Set in this tab when a session ran out, so that /login can say so; a new sign-in removes it. */
const ENDED_KEY = 'sessionEnded';

/**
 * How long before the session ends the web app warns and offers to stay signed in (docs/web-app.md,
 * "Behaviour"): long enough to read the warning and answer it.
 */
export const SESSION_WARNING_LEAD_MS = 2 * 60_000;

export interface Session {
  token: string;
  /** The role as stored; any value other than admin, manager or attendant is treated as no access. */
  role: string | null;
  /** Milliseconds since the epoch, or null when missing or unreadable. */
  expiresAt: number | null;
  /** The token's `sub`: the user's id everywhere (docs/rest-api.md, "Details"). */
  userId: string | null;
}

interface TokenClaims {
  sub?: string;
  role?: string;
}

/** Reads the JWT payload without verifying it: the server verifies every call. */
export function decodeTokenClaims(token: string): TokenClaims | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof claims === 'object' && claims !== null ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
let cachedKey: string | null = null;
let cachedSession: Session | null = null;

function notify(): void {
  listeners.forEach((listener) => listener());
}

export function readSession(): Session | null {
  const token = localStorage.getItem(TOKEN_KEY);
  const role = localStorage.getItem(ROLE_KEY);
  const expiry = localStorage.getItem(EXPIRY_KEY);
  const key = `${token}|${role}|${expiry}`;
  if (key === cachedKey) return cachedSession;
  cachedKey = key;
  const expiresAt = expiry === null ? null : Number(expiry);
  cachedSession = token
    ? {
        token,
        role,
        expiresAt: expiresAt !== null && Number.isFinite(expiresAt) ? expiresAt : null,
        userId: decodeTokenClaims(token)?.sub ?? null,
      }
    : null;
  return cachedSession;
}

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

/** A token and an expiry are required, and the expiry must lie in the future. */
export function isSessionActive(session: Session | null, now = Date.now()): session is Session {
  return session !== null && session.expiresAt !== null && now < session.expiresAt;
}

/** On login store the token, the role from its payload, and now + 20 minutes. */
export function saveSession(token: string): Session {
  const role = decodeTokenClaims(token)?.role ?? '';
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(ROLE_KEY, role);
  localStorage.setItem(EXPIRY_KEY, String(Date.now() + SESSION_EXPIRY_MS));
  sessionStorage.removeItem(ENDED_KEY);
  notify();
  return readSession()!;
}

/**
 * Removes token, role and expiry. `ended`: the session ran out, which /login then says; `signed-out`: the
 * user chose to leave, so nothing is said; without a reason an earlier notice stays as it is.
 */
export function clearSession(reason?: 'ended' | 'signed-out'): void {
  if (reason === 'ended') sessionStorage.setItem(ENDED_KEY, '1');
  if (reason === 'signed-out') sessionStorage.removeItem(ENDED_KEY);
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(ROLE_KEY);
  localStorage.removeItem(EXPIRY_KEY);
  notify();
}

/** True after a session of this tab ran out, until the next sign-in. */
export function sessionHasEnded(): boolean {
  return sessionStorage.getItem(ENDED_KEY) !== null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes localStorage; follow it here too.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The stored session (not checked for expiry; the route guard does that). */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, readSession, () => null);
}
