import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useTranslation } from '@/lib/i18n';
import { Footer } from './footer';
import { NavBar } from './nav-bar';

interface AppLayoutProps {
  /** Live counts beside navigation links, keyed by the link's path. */
  navBadges?: Readonly<Record<string, ReactNode>>;
  /** Notices shown above every page (e.g. a new float request for a manager). */
  notices?: ReactNode;
}

export function AppLayout({ navBadges, notices }: AppLayoutProps) {
  const { t } = useTranslation();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('layout.skip')}
      </a>
      <NavBar badges={navBadges} />
      {notices}
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
