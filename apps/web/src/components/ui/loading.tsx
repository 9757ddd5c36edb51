import { useTranslation } from '@/lib/i18n';

/** The text shown while a session is verified or data loads. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status">
      {t('common.loading')}
    </p>
  );
}
