import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { Card } from '@/components/ui/card';
import { DetailList } from '@/components/ui/detail-list';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useUserInfo } from '../api/get-user-info';

interface UserInfoCardProps {
  title: string;
  /** A manager's username is their company name (the registration form's "Company Name (stored as username)"). */
  usernameLabel?: 'Username' | 'Company Name';
  /** Extra rows after the profile, e.g. the role. */
  extra?: readonly { label: string; value: string }[];
}

/**
 * A person's own data (name, username, contacts, place) as it was entered: marked translate="no" (HTML's attribute)
 * so that neither a translating browser nor the language check treats it as text of the app.
 */
function asEntered(value: string | null | undefined) {
  return value ? <span translate="no">{value}</span> : value;
}

/** The caller's profile from GET /user/info. */
export function UserInfoCard({ title, usernameLabel = 'Username', extra = [] }: UserInfoCardProps) {
  const { t } = useTranslation();
  const info = useUserInfo();
  return (
    <Card title={title}>
      {info.isPending && <Loading />}
      {info.isError && (
        <StatusMessage tone="error">{t('profile.loadError', { detail: errorDetail(info.error) })}</StatusMessage>
      )}
      {info.data && (
        <DetailList
          items={[
            { label: t('profile.name'), value: asEntered(`${info.data.firstName} ${info.data.lastName}`) },
            {
              label: usernameLabel === 'Company Name' ? t('profile.companyName') : t('profile.username'),
              value: asEntered(info.data.username),
            },
            { label: t('profile.email'), value: asEntered(info.data.email) },
            { label: t('profile.phone'), value: asEntered(info.data.phoneNumber) },
            { label: t('profile.location'), value: asEntered(info.data.location) },
            ...extra,
          ]}
        />
      )}
    </Card>
  );
}
