import type { ParseKeys } from 'i18next';
import { paths } from '@/config/paths';

export interface NavLinkItem {
  kind: 'link';
  /** The English label (docs/web-app.md, "Screens"), which also keys the item. */
  label: string;
  to: string;
  /** The label's i18n key (docs/web-app.md, "Languages"). */
  labelKey: ParseKeys;
}

export interface NavGroupItem {
  kind: 'group';
  label: string;
  labelKey: ParseKeys;
  items: readonly NavLinkItem[];
}

export type NavItem = NavLinkItem | NavGroupItem;

const link = (label: string, to: string, labelKey: ParseKeys): NavLinkItem => ({ kind: 'link', label, to, labelKey });
const logout = link('Logout', paths.logout.getHref(), 'layout.nav.logout');
const alarms = link('Alarms', paths.alarms.getHref(), 'nav.alarms');
const payments = link('Payments', paths.payments.getHref(), 'nav.payments');

/**
 * Items depend on the role (docs/web-app.md, "Screens"); the manager has a Management drop-down; every role has Logout.
 */
export const navItemsByRole = {
  admin: [
    link('Dashboard', paths.admin.dashboard.getHref(), 'layout.nav.dashboard'),
    link('Users', paths.admin.users.getHref(), 'layout.nav.users'),
    link('Create Users', paths.admin.register.getHref(), 'layout.nav.createUsers'),
    link('Add Devices', paths.admin.addEsp32.getHref(), 'layout.nav.addDevices'),
    link('Profile', paths.admin.profile.getHref(), 'layout.nav.profile'),
    link('Settings', paths.admin.settings.getHref(), 'layout.nav.settings'),
    link('Audit', paths.admin.audit.getHref(), 'layout.nav.audit'),
    payments,
    alarms,
    logout,
  ],
  manager: [
    link('Dashboard', paths.manager.dashboard.getHref(), 'layout.nav.dashboard'),
    link('Approve Float', paths.manager.approveFloat.getHref(), 'layout.nav.approveFloat'),
    link('Card Info', paths.manager.cardInfoSummary.getHref(), 'layout.nav.cardInfo'),
    link('Machines', paths.manager.machineUsage.getHref(), 'layout.nav.machines'),
    link('Activity', paths.manager.machineActivity.getHref(), 'layout.nav.activity'),
    payments,
    alarms,
    {
      kind: 'group',
      label: 'Management',
      labelKey: 'layout.nav.management',
      items: [
        link('Add Attendant', paths.manager.registerAttendant.getHref(), 'layout.nav.addAttendant'),
        link('Remove Attendant', paths.manager.removeAttendant.getHref(), 'layout.nav.removeAttendant'),
      ],
    },
    link('My Account', paths.manager.profile.getHref(), 'layout.nav.myAccount'),
    logout,
  ],
  attendant: [
    link('Add Card', paths.attendant.dashboard.getHref(), 'layout.nav.addCard'),
    link('My Cards', paths.attendant.cards.getHref(), 'nav.cards'),
    link('Request Float', paths.attendant.float.getHref(), 'layout.nav.requestFloat'),
    alarms,
    link('My Account', paths.attendant.account.getHref(), 'layout.nav.myAccount'),
    logout,
  ],
  signedOut: [
    link('Home', paths.home.getHref(), 'layout.nav.home'),
    link('Log In', paths.login.getHref(), 'layout.nav.logIn'),
  ],
} as const satisfies Record<string, readonly NavItem[]>;

export function navItemsFor(role: string | null | undefined): readonly NavItem[] {
  return role === 'admin' || role === 'manager' || role === 'attendant'
    ? navItemsByRole[role]
    : navItemsByRole.signedOut;
}
