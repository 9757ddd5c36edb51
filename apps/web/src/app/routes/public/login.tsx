import { useNavigate } from 'react-router';
import { useTranslation } from '@/lib/i18n';
import { homePathForRole } from '@/lib/role-home';
import { Page } from '@/components/ui/page';
import { LoginForm, mainLoginFailureText } from '@/features/auth/components/login-form';

export function LoginRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Page title={t('login.title')} narrow lead={t('login.lead')}>
      <div className="card">
        <LoginForm
          failureText={mainLoginFailureText}
          onSuccess={(session) => navigate(homePathForRole(session.role), { replace: true })}
        />
      </div>
    </Page>
  );
}
