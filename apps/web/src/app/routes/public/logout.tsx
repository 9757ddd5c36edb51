import { Page } from '@/components/ui/page';
import { LogoutConfirm } from '@/features/auth/components/logout-confirm';

export function LogoutRoute() {
  return (
    <Page title="Logout" narrow>
      <div className="card">
        <LogoutConfirm />
      </div>
    </Page>
  );
}
