import { Page } from '@/components/ui/page';
import { UserInfoCard } from '@/features/profile/components/user-info-card';

export function AdminProfileRoute() {
  return (
    <Page title="Profile" narrow>
      <UserInfoCard title="Personal Information" extra={[{ label: 'Role', value: 'Administrator' }]} />
    </Page>
  );
}
