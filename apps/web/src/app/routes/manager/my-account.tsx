import { paths } from '@/config/paths';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { AttendantName } from '@/features/attendants/components/attendant-name';
import { MyDevices } from '@/features/devices/components/my-devices';
import { NotificationPreferencesCard } from '@/features/notification-preferences/components/notification-preferences-card';
import { UserInfoCard } from '@/features/profile/components/user-info-card';

/** My Account (/manager/profile/acc): Personal Information and My Devices with each attendant. */
export function MyAccountRoute() {
  return (
    <Page title="My Account">
      <div className="stack">
        <UserInfoCard title="Personal Information" usernameLabel="Company Name" />
        <Card title="My Devices">
          <MyDevices
            linkTo={paths.manager.device.getHref}
            renderExtra={(esp32Id) => <AttendantName esp32Id={esp32Id} />}
          />
        </Card>
        <NotificationPreferencesCard />
      </div>
    </Page>
  );
}
