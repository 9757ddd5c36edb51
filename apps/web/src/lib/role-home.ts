import { paths } from '@/config/paths';

/** Where a successful login lands, by role; any other role goes back to /login. */
export function homePathForRole(role: string | null | undefined): string {
  switch (role) {
    case 'admin':
      return paths.admin.dashboard.getHref();
    case 'manager':
      return paths.manager.dashboard.getHref();
    case 'attendant':
      return paths.attendant.dashboard.getHref();
    default:
      return paths.login.getHref();
  }
}
