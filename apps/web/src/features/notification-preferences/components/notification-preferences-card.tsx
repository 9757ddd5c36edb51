import { useTranslation } from '@/lib/i18n';
import { Card } from '@/components/ui/card';
import { NotificationPreferencesForm } from './notification-preferences-form';

/** The preferences as a panel of an account page, titled in the current language. */
export function NotificationPreferencesCard() {
  const { t } = useTranslation();
  return (
    <Card title={t('notificationPreferences.title')}>
      <NotificationPreferencesForm />
    </Card>
  );
}
