import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';
import { Page } from '@/components/ui/page';

export function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('layout.notFound.title')} narrow lead={t('layout.notFound.lead')}>
      <Link className="btn btn-primary" to={paths.home.getHref()}>
        {t('layout.notFound.home')}
      </Link>
    </Page>
  );
}
