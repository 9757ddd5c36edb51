import { useNavigate } from 'react-router';
import { homePathForRole } from '@/lib/role-home';
import { Page } from '@/components/ui/page';
import { LoginForm, mainLoginFailureText } from '@/features/auth/components/login-form';

export function LoginRoute() {
  const navigate = useNavigate();
  return (
    <Page title="Log In" narrow lead="Sign in with your email address or phone number.">
      <div className="card">
        <LoginForm
          failureText={mainLoginFailureText}
          onSuccess={(session) => navigate(homePathForRole(session.role), { replace: true })}
        />
      </div>
    </Page>
  );
}
