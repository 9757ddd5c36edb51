import { useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { SESSION_CHECK_INTERVAL_MS, type Role } from '@wv/contracts';
import { paths } from '@/config/paths';
import { clearSession, isSessionActive, readSession, useSession } from '@/lib/session';
import { Loading } from '@/components/ui/loading';
import { SessionWarning } from './session-warning';

/**
 * Route guards (docs/web-app.md, "Routes"): no token, no expiry or an expired one clears the session and goes to
 * /login; a stored role other than the route's goes to /. The check runs on every navigation, whenever
 * the stored session changes (another tab), and every 60 seconds; 'Loading...' shows until it passes.
 * A route may admit several roles (a machine's pages: the admin's dashboard links to them too).
 */
export function SessionGuard({ role }: { role?: Role | readonly Role[] }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useSession();
  const [verified, setVerified] = useState(false);

  useEffect(() => {
    const check = (): boolean => {
      const current = readSession();
      if (!isSessionActive(current)) {
        // A session that ran out is announced on /login; no session at all is not.
        clearSession(current ? 'ended' : undefined);
        navigate(paths.login.getHref(), { replace: true });
        return false;
      }
      const allowed = role === undefined || (typeof role === 'string' ? [role] : role).some((r) => r === current.role);
      if (!allowed) {
        navigate(paths.home.getHref(), { replace: true });
        return false;
      }
      return true;
    };
    setVerified(check());
    const timer = window.setInterval(() => setVerified(check()), SESSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [pathname, session, role, navigate]);

  return verified ? (
    <>
      <Outlet />
      <SessionWarning />
    </>
  ) : (
    <Loading />
  );
}
