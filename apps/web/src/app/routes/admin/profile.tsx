import { Page } from '@/components/ui/page';
import { NotificationPreferencesCard } from '@/features/notification-preferences/components/notification-preferences-card';
import { UserInfoCard } from '@/features/profile/components/user-info-card';

export function AdminProfileRoute() {
  return (
    <Page title="Profile" narrow>
      <div className="stack">
        <UserInfoCard title="Personal Information" extra={[{ label: 'Role', value: 'Administrator' }]} />
        <NotificationPreferencesCard />
      </div>
    </Page>
  );
}
