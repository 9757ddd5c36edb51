import { paths } from '@/config/paths';

export interface NavLinkItem {
  kind: 'link';
  label: string;
  to: string;
  /** The label's i18n key, for items of the translated screens (docs/web-app.md, "Languages"). */
  labelKey?: 'nav.cards' | 'nav.payments';
}

export interface NavGroupItem {
  kind: 'group';
  label: string;
  items: readonly NavLinkItem[];
}

export type NavItem = NavLinkItem | NavGroupItem;

const link = (label: string, to: string): NavLinkItem => ({ kind: 'link', label, to });
const logout = link('Logout', paths.logout.getHref());
const alarms = link('Alarms', paths.alarms.getHref());
const payments: NavLinkItem = { ...link('Payments', paths.payments.getHref()), labelKey: 'nav.payments' };

/**
 * Items depend on the role (docs/web-app.md, "Screens"); the manager has a Management drop-down; every role has Logout.
 */
export const navItemsByRole = {
  admin: [
    link('Dashboard', paths.admin.dashboard.getHref()),
    link('Users', paths.admin.users.getHref()),
    link('Create Users', paths.admin.register.getHref()),
    link('Add Devices', paths.admin.addEsp32.getHref()),
    link('Profile', paths.admin.profile.getHref()),
    link('Settings', paths.admin.settings.getHref()),
    link('Audit', paths.admin.audit.getHref()),
    payments,
    alarms,
    logout,
  ],
  manager: [
    link('Dashboard', paths.manager.dashboard.getHref()),
    link('Approve Float', paths.manager.approveFloat.getHref()),
    link('Card Info', paths.manager.cardInfoSummary.getHref()),
    link('Machines', paths.manager.machineUsage.getHref()),
    link('Activity', paths.manager.machineActivity.getHref()),
    payments,
    alarms,
    {
      kind: 'group',
      label: 'Management',
      items: [
        link('Add Attendant', paths.manager.registerAttendant.getHref()),
        link('Remove Attendant', paths.manager.removeAttendant.getHref()),
      ],
    },
    link('My Account', paths.manager.profile.getHref()),
    logout,
  ],
  attendant: [
    link('Add Card', paths.attendant.dashboard.getHref()),
    { ...link('My Cards', paths.attendant.cards.getHref()), labelKey: 'nav.cards' },
    link('Request Float', paths.attendant.float.getHref()),
    alarms,
    logout,
  ],
  signedOut: [link('Home', paths.home.getHref()), link('Log In', paths.login.getHref())],
} as const satisfies Record<string, readonly NavItem[]>;

export function navItemsFor(role: string | null | undefined): readonly NavItem[] {
  return role === 'admin' || role === 'manager' || role === 'attendant'
    ? navItemsByRole[role]
    : navItemsByRole.signedOut;
}
