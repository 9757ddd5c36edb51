import { useSession, isSessionActive } from '@/lib/session';
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
  const session = useSession();
  const isAdmin = isSessionActive(session) && session.role === 'admin';
  return (
    <Page title="User Registration" lead="Create an account. Registration requires an administrator.">
      <div className="card">
        <UserRegisterForm submitLabel="Register User" withDevice={isAdmin} canListDevices={isAdmin} />
      </div>
    </Page>
  );
}
