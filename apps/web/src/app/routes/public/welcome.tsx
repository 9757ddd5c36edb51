import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { useTranslation } from '@/lib/i18n';

/** A landing page with a Continue button that goes to /login (docs/web-app.md, "Screens"). */
export function WelcomeRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <section className="hero" aria-labelledby="welcome-title">
      <h1 id="welcome-title">{t('layout.brand')}</h1>
      <p className="hero-lead">{t('publicForms.welcomeLead')}</p>
      <Button className="btn-lg" onClick={() => navigate(paths.login.getHref())}>
        {t('publicForms.continue')}
      </Button>
    </section>
  );
}
