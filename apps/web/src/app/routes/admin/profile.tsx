import { useTranslation } from '@/lib/i18n';
import { Page } from '@/components/ui/page';
import { NotificationPreferencesCard } from '@/features/notification-preferences/components/notification-preferences-card';
import { ChangePasswordCard } from '@/features/profile/components/change-password-card';
import { UserInfoCard } from '@/features/profile/components/user-info-card';

export function AdminProfileRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('profile.profileTitle')} narrow>
      <div className="stack">
        <UserInfoCard
          title={t('profile.personalInformation')}
          extra={[{ label: t('profile.role'), value: t('profile.administrator') }]}
        />
        <ChangePasswordCard />
        <NotificationPreferencesCard />
      </div>
    </Page>
  );
}
