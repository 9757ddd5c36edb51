import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';

/** Shown when a page fails to render: a plain sentence and a way out, never a blank screen. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : t('layout.routeError.unknown');
  return (
    <section className="page page-narrow" role="alert">
      <h1>{t('layout.routeError.title')}</h1>
      <p className="page-lead">{detail}</p>
      <Link className="btn btn-primary" to={paths.home.getHref()}>
        {t('layout.notFound.home')}
      </Link>
    </section>
  );
}
