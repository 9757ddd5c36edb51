import { useSession, isSessionActive } from '@/lib/session';
import { useTranslation } from '@/lib/i18n';
import { Page } from '@/components/ui/page';
import { UserRegisterForm } from '@/features/users/components/user-register-form';

/**
 * The generic registration form (/ca): seven fields and 'Register User' (docs/web-app.md, "Screens"); the screen
 * does not name the call it makes. The API has one user-creating call for this, POST /admin/register-user,
 * which is admin-only and requires a device for the new user. So: a signed-in admin also gets the
 * device fields (Current Location, ESP32 ID, Machine Location) and can register; for anyone else the
 * form sends the seven fields, the server refuses, and the page shows 'Error registering user'.
 */
export function GenericRegisterRoute() {
  const { t } = useTranslation();
  const session = useSession();
  const isAdmin = isSessionActive(session) && session.role === 'admin';
  return (
    <Page title={t('publicForms.registerTitle')} lead={t('publicForms.registerLead')}>
      <div className="card">
        <UserRegisterForm submitLabel={t('publicForms.registerSubmit')} withDevice={isAdmin} canListDevices={isAdmin} />
      </div>
    </Page>
  );
}
