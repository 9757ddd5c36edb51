import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Page } from '@/components/ui/page';

export function NotFoundRoute() {
  return (
    <Page title="Page not found" narrow lead="There is no page at this address.">
      <Link className="btn btn-primary" to={paths.home.getHref()}>
        Go to the start page
      </Link>
    </Page>
  );
}
