import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { Loading } from '@/components/ui/loading';
import { Page } from '@/components/ui/page';
import { StatusMessage } from '@/components/ui/status-message';
import { useUsers } from '@/features/users/api/get-users';
import { UsersTable } from '@/features/users/components/users-table';

export function UsersRoute() {
  const { t } = useTranslation();
  const users = useUsers();
  return (
    <Page title={t('users.title')} lead={t('users.lead')}>
      {users.isPending && <Loading />}
      {users.isError && (
        <StatusMessage tone="error">{t('users.loadError', { detail: errorDetail(users.error) })}</StatusMessage>
      )}
      {users.data && <UsersTable users={users.data} />}
    </Page>
  );
}
