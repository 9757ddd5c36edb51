import { useTranslation } from '@/lib/i18n';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { MyDevices } from '@/features/devices/components/my-devices';
import { ChangePasswordCard } from '@/features/profile/components/change-password-card';
import { UserInfoCard } from '@/features/profile/components/user-info-card';

/** The attendant's My Account (/att/account): their profile, their machine, and the password change. */
export function AttendantAccountRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('profile.myAccount')} narrow>
      <div className="stack">
        <UserInfoCard title={t('profile.personalInformation')} />
        <Card title={t('profile.myMachine')}>
          <MyDevices />
        </Card>
        <ChangePasswordCard />
      </div>
    </Page>
  );
}
