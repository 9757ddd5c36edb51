import { errorDetail } from '@/lib/api-client';
import { Loading } from '@/components/ui/loading';
import { Page } from '@/components/ui/page';
import { StatusMessage } from '@/components/ui/status-message';
import { useUsers } from '@/features/users/api/get-users';
import { UsersTable } from '@/features/users/components/users-table';

export function UsersRoute() {
  const users = useUsers();
  return (
    <Page title="Users" lead="Every account with its role and devices.">
      {users.isPending && <Loading />}
      {users.isError && <StatusMessage tone="error">Error loading users: {errorDetail(users.error)}</StatusMessage>}
      {users.data && <UsersTable users={users.data} />}
    </Page>
  );
}
