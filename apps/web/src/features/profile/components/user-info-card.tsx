import { errorDetail } from '@/lib/api-client';
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

/** The caller's profile from GET /user/info. */
export function UserInfoCard({ title, usernameLabel = 'Username', extra = [] }: UserInfoCardProps) {
  const info = useUserInfo();
  return (
    <Card title={title}>
      {info.isPending && <Loading />}
      {info.isError && (
        <StatusMessage tone="error">Error loading your profile: {errorDetail(info.error)}</StatusMessage>
      )}
      {info.data && (
        <DetailList
          items={[
            { label: 'Name', value: `${info.data.firstName} ${info.data.lastName}` },
            { label: usernameLabel, value: info.data.username },
            { label: 'Email', value: info.data.email },
            { label: 'Phone', value: info.data.phoneNumber },
            { label: 'Location', value: info.data.location },
            ...extra,
          ]}
        />
      )}
    </Card>
  );
}
