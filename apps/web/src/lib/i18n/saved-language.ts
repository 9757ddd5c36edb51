import { useEffect } from 'react';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '../api-client';
import { isSessionActive, readSession, useSession } from '../session';
import { currentLanguage, setLanguage, type Language } from './index';

/**
 * The language kept on the server (docs/web-app.md, "Behaviour"; docs/alarms.md, "Languages"): the
 * server writes every email and SMS to the user in it, and the app takes it on after sign-in.
 */

/** The user whose saved language this browser took on since they signed in. */
const SYNCED_KEY = 'languageSyncedFor';

/** Counts the user's own choices: a saved language that arrives after one is not applied over it. */
let choices = 0;

/**
 * The user picked a language: the screens switch at once, and a signed-in user's choice is saved on the
 * server for their messages. A failed save leaves the screens in the chosen language.
 */
export async function chooseLanguage(language: Language): Promise<void> {
  choices += 1;
  await setLanguage(language);
  if (!isSessionActive(readSession())) return;
  try {
    await callApi(apiRoutes.setLanguage, { body: { language } });
  } catch (error) {
    console.warn('The language was not saved on the server', error);
  }
}

/**
 * After sign-in, switches the app to the user's saved language, once per sign-in: later choices in
 * this browser (and reloads) keep what the user picked. Mounted once, in the page shell.
 */
export function useSavedLanguage(): void {
  const session = useSession();
  const userId = isSessionActive(session) ? session.userId : null;
  useEffect(() => {
    if (!userId) {
      localStorage.removeItem(SYNCED_KEY);
      return;
    }
    if (localStorage.getItem(SYNCED_KEY) === userId) return;
    const before = choices;
    let cancelled = false;
    callApi(apiRoutes.userInfo).then(
      async ({ language }) => {
        if (cancelled || before !== choices) return;
        localStorage.setItem(SYNCED_KEY, userId);
        if (language !== currentLanguage()) await setLanguage(language);
      },
      // Not taken on this time: asked again at the next load of the app.
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [userId]);
}
