import { afterEach, describe, expect, it } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import {
  clearSession,
  decodeTokenClaims,
  isSessionActive,
  readSession,
  saveSession,
  sessionHasEnded,
  useSession,
} from './session';

const TWENTY_MINUTES = 20 * 60 * 1000;

/** A JWT-shaped token (header.payload.signature) whose payload is `claims`, base64url-encoded. */
function tokenWith(claims: object): string {
  const bytes = new TextEncoder().encode(JSON.stringify(claims));
  const base64 = btoa(String.fromCharCode(...bytes));
  const base64url = base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `eyJhbGciOiJIUzI1NiJ9.${base64url}.signature`;
}

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('reading a token', () => {
  it('reads the user id and the role from the payload without verifying the signature', () => {
    const token = tokenWith({ sub: '5d0c1e64-4f5e-4d1a-9c43-0f5b8a1b2c3d', role: 'manager' });
    expect(decodeTokenClaims(token)).toEqual({ sub: '5d0c1e64-4f5e-4d1a-9c43-0f5b8a1b2c3d', role: 'manager' });
  });

  it('reads a payload that needs base64url characters and UTF-8', () => {
    // '??>' encodes to '/' and '+' in plain base64, which base64url writes as '_' and '-'.
    const claims = { sub: 'a', role: 'attendant', name: 'Zuhura Ñandú ??>' };
    const token = tokenWith(claims);
    expect(token.split('.')[1]).toMatch(/[-_]/);
    expect(decodeTokenClaims(token)).toEqual(claims);
  });

  it('gives nothing for a token without a payload or with a payload that is not JSON', () => {
    expect(decodeTokenClaims('not-a-jwt')).toBeNull();
    expect(decodeTokenClaims('header.%%%.signature')).toBeNull();
    expect(decodeTokenClaims(`header.${btoa('plain text')}.signature`)).toBeNull();
  });
});

describe('the stored session', () => {
  it('stores the token, the role from its payload and an expiry twenty minutes from now on login', () => {
    const before = Date.now();
    const session = saveSession(tokenWith({ sub: 'user-1', role: 'attendant' }));
    const after = Date.now();

    expect(session.role).toBe('attendant');
    expect(session.userId).toBe('user-1');
    expect(localStorage.getItem('role')).toBe('attendant');
    expect(localStorage.getItem('token')).toBe(session.token);
    const expiry = Number(localStorage.getItem('tokenExpiry'));
    expect(expiry).toBeGreaterThanOrEqual(before + TWENTY_MINUTES);
    expect(expiry).toBeLessThanOrEqual(after + TWENTY_MINUTES);
    expect(session.expiresAt).toBe(expiry);
  });

  it('stores an empty role when the token carries none', () => {
    expect(saveSession(tokenWith({ sub: 'user-1' })).role).toBe('');
  });

  it('is active until its expiry and not from the expiry on', () => {
    const session = saveSession(tokenWith({ sub: 'user-1', role: 'admin' }));
    const expiresAt = session.expiresAt!;
    expect(isSessionActive(session, expiresAt - 1)).toBe(true);
    expect(isSessionActive(session, expiresAt)).toBe(false);
    expect(isSessionActive(session, expiresAt + 60_000)).toBe(false);
  });

  it('is not active without a token, or with a missing or unreadable expiry', () => {
    expect(readSession()).toBeNull();
    expect(isSessionActive(null)).toBe(false);

    localStorage.setItem('token', tokenWith({ sub: 'user-1' }));
    localStorage.setItem('role', 'admin');
    expect(readSession()?.expiresAt).toBeNull();
    expect(isSessionActive(readSession())).toBe(false);

    localStorage.setItem('tokenExpiry', 'tomorrow');
    expect(readSession()?.expiresAt).toBeNull();
    expect(isSessionActive(readSession())).toBe(false);
  });

  it('keeps a role it does not know as stored, for the route guard to refuse', () => {
    localStorage.setItem('token', tokenWith({ sub: 'user-1' }));
    localStorage.setItem('role', 'superuser');
    localStorage.setItem('tokenExpiry', String(Date.now() + 60_000));
    expect(readSession()?.role).toBe('superuser');
  });

  it('removes the token, the role and the expiry on sign-out', () => {
    saveSession(tokenWith({ sub: 'user-1', role: 'manager' }));
    clearSession();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('role')).toBeNull();
    expect(localStorage.getItem('tokenExpiry')).toBeNull();
    expect(readSession()).toBeNull();
  });
});

describe('useSession', () => {
  it('follows a sign-in and a sign-out in this tab', () => {
    const { result } = renderHook(() => useSession());
    expect(result.current).toBeNull();

    act(() => void saveSession(tokenWith({ sub: 'user-7', role: 'manager' })));
    expect(result.current).toMatchObject({ userId: 'user-7', role: 'manager' });

    act(() => clearSession());
    expect(result.current).toBeNull();
  });

  it('follows a sign-in made in another tab', () => {
    const { result } = renderHook(() => useSession());
    expect(result.current).toBeNull();

    // Another tab writes localStorage; this one hears a `storage` event.
    act(() => {
      localStorage.setItem('token', tokenWith({ sub: 'user-8', role: 'admin' }));
      localStorage.setItem('role', 'admin');
      localStorage.setItem('tokenExpiry', String(Date.now() + TWENTY_MINUTES));
      window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
    });
    expect(result.current).toMatchObject({ userId: 'user-8', role: 'admin' });
  });
});

describe('the notice of an ended session', () => {
  it('is kept when a session runs out, through later clears, until the next sign-in', () => {
    saveSession(tokenWith({ sub: 'a', role: 'manager' }));
    clearSession('ended');
    expect(readSession()).toBeNull();
    expect(sessionHasEnded()).toBe(true);
    clearSession();
    expect(sessionHasEnded()).toBe(true);
    saveSession(tokenWith({ sub: 'a', role: 'manager' }));
    expect(sessionHasEnded()).toBe(false);
  });

  it('is not given when the user signs out', () => {
    clearSession('ended');
    clearSession('signed-out');
    expect(sessionHasEnded()).toBe(false);
  });
});
