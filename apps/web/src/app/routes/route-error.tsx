import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '@/config/paths';

/** Shown when a page fails to render: a plain sentence and a way out, never a blank screen. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <section className="page page-narrow" role="alert">
      <h1>Something went wrong</h1>
      <p className="page-lead">{detail}</p>
      <Link className="btn btn-primary" to={paths.home.getHref()}>
        Go to the start page
      </Link>
    </section>
  );
}
