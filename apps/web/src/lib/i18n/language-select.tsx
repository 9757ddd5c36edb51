import { useId } from 'react';
import { LANGUAGES, useTranslation, type Language } from './index';
import { chooseLanguage } from './saved-language';

/**
 * A choice of the app's language (English or Kiswahili), applied at once, kept in this browser and, for
 * a signed-in user, on the server: their emails and SMS are written in it.
 */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className="field field-inline language-select">
      <label htmlFor={id}>{t('common.language')}</label>
      <select id={id} value={i18n.language} onChange={(event) => void chooseLanguage(event.target.value as Language)}>
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`languages.${language}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
