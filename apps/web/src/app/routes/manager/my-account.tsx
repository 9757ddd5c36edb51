import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { AttendantName } from '@/features/attendants/components/attendant-name';
import { MyDevices } from '@/features/devices/components/my-devices';
import { NotificationPreferencesCard } from '@/features/notification-preferences/components/notification-preferences-card';
import { ChangePasswordCard } from '@/features/profile/components/change-password-card';
import { UserInfoCard } from '@/features/profile/components/user-info-card';

/** My Account (/manager/profile/acc): Personal Information, My Devices with each attendant, the password change. */
export function MyAccountRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('profile.myAccount')}>
      <div className="stack">
        <UserInfoCard title={t('profile.personalInformation')} usernameLabel="Company Name" />
        <Card title={t('devices.mine')}>
          <MyDevices
            linkTo={paths.manager.device.getHref}
            renderExtra={(esp32Id) => <AttendantName esp32Id={esp32Id} />}
          />
        </Card>
        <ChangePasswordCard />
        <NotificationPreferencesCard />
      </div>
    </Page>
  );
}
