import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { renderHook, waitFor } from '@testing-library/react';
import type { RecordedRequest } from '../../../test/api-server';
import { useFakeApi } from '../../../test/fake-api';
import { currentLanguage, setLanguage } from './index';
import { chooseLanguage, useSavedLanguage } from './saved-language';

const server = useFakeApi();

/** A token whose payload names the user (the session reads `sub` and `role` from it). */
const tokenOf = (sub: string) => `h.${btoa(JSON.stringify({ sub, role: 'manager' }))}.s`;

function signIn(userId: string) {
  localStorage.setItem('token', tokenOf(userId));
  localStorage.setItem('role', 'manager');
  localStorage.setItem('tokenExpiry', String(Date.now() + 20 * 60_000));
}

const info = (language: string) => ({
  firstName: 'Asha',
  lastName: 'Mushi',
  username: 'asha',
  email: null,
  phoneNumber: '+255700000001',
  location: 'Kariakoo',
  language,
});

const calls = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path);

afterEach(async () => {
  await setLanguage('en');
});

describe('the language kept on the server', () => {
  it('saves a signed-in user’s choice on the server, and switches the screens at once', async () => {
    server.answer((request: RecordedRequest) => ({ body: request.body }));
    signIn('user-1');
    await chooseLanguage('sw');
    expect(currentLanguage()).toBe('sw');
    expect(calls('PUT', '/user/language').map((r) => r.body)).toEqual([{ language: 'sw' }]);
  });

  it('keeps a choice made before sign-in in this browser only', async () => {
    await chooseLanguage('sw');
    expect(currentLanguage()).toBe('sw');
    expect(localStorage.getItem('language')).toBe('sw');
    expect(server.requests).toEqual([]);
  });

  it('keeps the chosen screens when the server cannot save it', async () => {
    server.answer(() => ({ status: 503, body: { statusCode: 503, code: 'Unavailable', message: 'Try again' } }));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    signIn('user-1');
    await chooseLanguage('sw');
    expect(currentLanguage()).toBe('sw');
    expect(warn).toHaveBeenCalledWith('The language was not saved on the server', expect.anything());
    warn.mockRestore();
  });

  it('takes on the user’s saved language after sign-in, once: a later choice in this browser stays', async () => {
    server.answer((request) => (request.path === '/user/info' ? { body: info('sw') } : { body: request.body }));
    signIn('user-2');
    const first = renderHook(() => useSavedLanguage());
    await waitFor(() => expect(currentLanguage()).toBe('sw'));
    first.unmount();

    await setLanguage('en');
    const reload = renderHook(() => useSavedLanguage());
    await new Promise((r) => setTimeout(r, 200));
    expect(currentLanguage()).toBe('en');
    expect(calls('GET', '/user/info')).toHaveLength(1);
    reload.unmount();
  });

  it('asks again for the next user who signs in, and asks nothing while nobody is signed in', async () => {
    server.answer(() => ({ body: info('sw') }));
    const signedOut = renderHook(() => useSavedLanguage());
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests).toEqual([]);
    signedOut.unmount();

    localStorage.setItem('languageSyncedFor', 'user-2');
    signIn('user-3');
    const view = renderHook(() => useSavedLanguage());
    await waitFor(() => expect(currentLanguage()).toBe('sw'));
    expect(localStorage.getItem('languageSyncedFor')).toBe('user-3');
    view.unmount();
  });
});
