import { useEffect, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';
import { isSessionActive, useSession } from '@/lib/session';
import { NavGroup } from './nav-group';
import { navItemsFor } from './nav-items';

/**
 * A title bar with a slide-in menu on a phone and an inline menu on a desktop (the
 * stylesheet decides which); the items depend on the stored role. `badges` puts something live beside
 * a link (the manager's pending float requests), keyed by the link's path; the app supplies them.
 */
export function NavBar({ badges = {} }: { badges?: Readonly<Record<string, ReactNode>> }) {
  const { t } = useTranslation();
  const session = useSession();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const items = navItemsFor(isSessionActive(session) ? session.role : null);

  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="topbar">
      <div className="topbar-inner">
        <Link to={paths.home.getHref()} className="brand">
          <span className="brand-mark" aria-hidden="true" />
          {t('layout.brand')}
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-label={open ? t('layout.closeMenu') : t('layout.openMenu')}
          aria-expanded={open}
          aria-controls="main-menu"
          onClick={() => setOpen((value) => !value)}
        >
          <span className="menu-toggle-bars" aria-hidden="true" />
        </button>
        <div className={open ? 'menu-backdrop open' : 'menu-backdrop'} onClick={() => setOpen(false)} />
        <nav id="main-menu" className={open ? 'menu open' : 'menu'} aria-label={t('layout.mainMenu')}>
          <ul className="menu-list">
            {items.map((item) =>
              item.kind === 'group' ? (
                <NavGroup key={item.label} group={item} />
              ) : (
                <li key={item.to}>
                  <NavLink className="nav-link" to={item.to} end>
                    {t(item.labelKey)}
                    {badges[item.to]}
                  </NavLink>
                </li>
              ),
            )}
          </ul>
        </nav>
      </div>
    </header>
  );
}
