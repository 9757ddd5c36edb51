import type { AdminUserRow } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { StatusMessage } from '@/components/ui/status-message';
import { useUnassignUserDevice } from '../api/unassign-user-device';

interface UnassignMachineDialogProps {
  user: AdminUserRow;
  machine: string;
  onClose: () => void;
  onDone: (notice: string) => void;
}

/** Asks, naming user and machine, before the machine leaves the user (docs/rest-api.md, "Accounts and sessions"). */
export function UnassignMachineDialog({ user, machine, onClose, onDone }: UnassignMachineDialogProps) {
  const { t } = useTranslation();
  const mutation = useUnassignUserDevice();
  const name = `${user.firstName} ${user.lastName}`;
  const confirm = () =>
    mutation.mutate(
      { userId: user.userId, esp32Id: machine },
      { onSuccess: () => onDone(t('users.unassign.done', { machine, name })) },
    );
  return (
    <ConfirmDialog
      title={t('users.unassign.title')}
      confirmLabel={t('users.unassign.confirm')}
      cancelLabel={t('users.cancel')}
      onConfirm={confirm}
      onCancel={onClose}
      busy={mutation.isPending}
    >
      <p>{t('users.unassign.question', { machine, name })}</p>
      <p className="muted">{t(user.role === 'attendant' ? 'users.unassign.attendant' : 'users.unassign.owner')}</p>
      {mutation.isError && (
        <StatusMessage tone="error">{t('users.failed', { detail: errorDetail(mutation.error) })}</StatusMessage>
      )}
    </ConfirmDialog>
  );
}
