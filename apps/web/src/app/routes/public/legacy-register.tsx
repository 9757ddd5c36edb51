import { useSession, isSessionActive } from '@/lib/session';
import { useTranslation } from '@/lib/i18n';
import { Page } from '@/components/ui/page';
import { UserRegisterForm } from '@/features/users/components/user-register-form';

/**
 * The older ESP32 User Registration form (/b). Only part of it is specified; it is the one-page
 * version of Create User: a user together with the ESP32 device they own, sent to POST
 * /admin/register-user. It is a public route, but only a signed-in admin gets a device list and a
 * successful answer; anyone else sees the server's refusal as 'Error registering user'.
 */
export function LegacyRegisterRoute() {
  const { t } = useTranslation();
  const session = useSession();
  const isAdmin = isSessionActive(session) && session.role === 'admin';
  return (
    <Page title={t('publicForms.legacyTitle')} lead={t('publicForms.legacyLead')}>
      <div className="card">
        <UserRegisterForm submitLabel={t('publicForms.legacySubmit')} withDevice canListDevices={isAdmin} />
      </div>
    </Page>
  );
}
