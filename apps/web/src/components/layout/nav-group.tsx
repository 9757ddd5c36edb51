import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useTranslation } from '@/lib/i18n';
import type { NavGroupItem } from './nav-items';

/** A drop-down in the menu (Management): a disclosure button; closes on navigation, Escape or outside click. */
export function NavGroup({ group }: { group: NavGroupItem }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const listId = useId();
  const root = useRef<HTMLLIElement>(null);

  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const active = group.items.some((item) => item.to === pathname);
  return (
    <li className="nav-group" ref={root}>
      <button
        type="button"
        className={active ? 'nav-link nav-group-toggle active' : 'nav-link nav-group-toggle'}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        {t(group.labelKey)}
        <span className="caret" aria-hidden="true" />
      </button>
      <ul id={listId} className="nav-submenu" hidden={!open}>
        {group.items.map((item) => (
          <li key={item.to}>
            <NavLink className="nav-link" to={item.to} end>
              {t(item.labelKey)}
            </NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}
