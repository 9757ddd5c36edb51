import { useId } from 'react';
import { LANGUAGES, setLanguage, useTranslation, type Language } from './index';

/** A choice of the app's language (English or Kiswahili), applied at once and kept in this browser. */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className="field field-inline language-select">
      <label htmlFor={id}>{t('common.language')}</label>
      <select id={id} value={i18n.language} onChange={(event) => void setLanguage(event.target.value as Language)}>
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`languages.${language}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
