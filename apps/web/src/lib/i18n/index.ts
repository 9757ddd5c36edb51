import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en, type Translation } from './en';
import { sw } from './sw';

/**
 * Translations of the web app (docs/web-app.md, "Behaviour"): English and Kiswahili, bundled with the app
 * so that a screen never waits for a text. The chosen language is kept in this browser and, for a
 * signed-in user, on the server (saved-language.ts), which the app takes on after sign-in; the first
 * visit follows the browser's language.
 */
export const LANGUAGES = ['en', 'sw'] as const;
export type Language = (typeof LANGUAGES)[number];

const STORAGE_KEY = 'language';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Translation };
  }
}

const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

function initialLanguage(): Language {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  const browser = typeof navigator === 'undefined' ? '' : navigator.language.toLowerCase();
  return browser === 'sw' || browser.startsWith('sw-') ? 'sw' : 'en';
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, sw: { translation: sw } },
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: LANGUAGES,
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  // The resources are in the bundle: ready before the first render.
  initAsync: false,
  react: { useSuspense: false },
  // A key no language has (a typo in a built key such as `alarm.kind.${kind}`) shows as the raw key: say so
  // in the console, where the every-route browser test looks for it.
  saveMissing: true,
  missingKeyHandler: (languages, _namespace, key) => console.warn(`Missing translation: ${languages.join(',')} ${key}`),
});

function markDocument(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
markDocument(i18n.language);
i18n.on('languageChanged', markDocument);

/** Switches every translated screen at once and remembers the choice in this browser. */
export async function setLanguage(language: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEY, language);
  await i18n.changeLanguage(language);
}

/** The current language, one of LANGUAGES. */
export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : 'en');

export { useTranslation };
