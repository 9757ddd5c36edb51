import { Page } from '@/components/ui/page';
import { AuditLog } from '@/features/audit/components/audit-log';
import { useUsers } from '@/features/users/api/get-users';

/** The audit trail (/admin/audit); people are named from the user list. */
export function AuditRoute() {
  const users = useUsers();
  const actors = (users.data ?? [])
    .map((user) => ({ value: user.userId, label: `${user.firstName} ${user.lastName} (${user.role})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return (
    <Page title="Audit" lead="Who changed what, and when: money, users, devices, tariffs and Wi-Fi.">
      <AuditLog actors={actors} />
    </Page>
  );
}
