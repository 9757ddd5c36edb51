import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { useSignOut } from '../hooks/use-sign-out';

/** Logout clears the session and goes to /login; Cancel goes back one page. */
export function LogoutConfirm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const signOut = useSignOut();

  const logout = () => {
    signOut();
    navigate(paths.login.getHref(), { replace: true });
  };

  // Opened directly (no page to go back to): Cancel goes to the welcome page instead.
  const cancel = () => (location.key === 'default' ? navigate(paths.home.getHref()) : navigate(-1));

  return (
    <div className="confirm">
      <p className="confirm-question">{t('logout.question')}</p>
      <div className="actions">
        <Button variant="danger" onClick={logout}>
          {t('logout.confirm')}
        </Button>
        <Button variant="secondary" onClick={cancel}>
          {t('logout.cancel')}
        </Button>
      </div>
    </div>
  );
}
