import { useTranslation } from '@/lib/i18n';

/** A copyright with the current year and 'Water Vending Solutions' (docs/web-app.md, "Screens"). */
export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="footer">
      <p>{t('layout.footer', { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
