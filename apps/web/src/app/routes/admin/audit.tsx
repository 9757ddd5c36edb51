import { Page } from '@/components/ui/page';
import { AuditLog } from '@/features/audit/components/audit-log';
import { useUsers } from '@/features/users/api/get-users';
import { useTranslation } from '@/lib/i18n';

/** The audit trail (/admin/audit); people are named from the user list. */
export function AuditRoute() {
  const { t } = useTranslation();
  const users = useUsers();
  const actors = (users.data ?? [])
    .map((user) => {
      const name = `${user.firstName} ${user.lastName}`;
      const role = t(`users.role.${user.role}`);
      return { value: user.userId, label: `${name} (${role})`, name, role };
    })
    .sort((a, b) => a.label.localeCompare(b.label));
  return (
    <Page title={t('audit.title')} lead={t('audit.lead')}>
      <AuditLog actors={actors} />
    </Page>
  );
}
