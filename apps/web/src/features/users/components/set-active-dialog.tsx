import type { AdminUserRow } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { StatusMessage } from '@/components/ui/status-message';
import { useSetUserActive } from '../api/set-user-active';

interface SetActiveDialogProps {
  user: AdminUserRow;
  onClose: () => void;
  onDone: (notice: string) => void;
}

/**
 * Deactivates an active account or reactivates a deactivated one, after asking. A deactivated user is signed
 * out at once and cannot sign in; their history stays (docs/rest-api.md, "Accounts and sessions").
 */
export function SetActiveDialog({ user, onClose, onDone }: SetActiveDialogProps) {
  const { t } = useTranslation();
  const mutation = useSetUserActive();
  const name = `${user.firstName} ${user.lastName}`;
  const deactivating = user.active;
  const confirm = () =>
    mutation.mutate(
      { userId: user.userId, active: !deactivating },
      { onSuccess: () => onDone(t(deactivating ? 'users.deactivate.done' : 'users.reactivate.done', { name })) },
    );
  return (
    <ConfirmDialog
      title={t(deactivating ? 'users.deactivate.title' : 'users.reactivate.title')}
      confirmLabel={t(deactivating ? 'users.deactivate.confirm' : 'users.reactivate.confirm')}
      cancelLabel={t('users.cancel')}
      confirmVariant={deactivating ? 'danger' : 'primary'}
      onConfirm={confirm}
      onCancel={onClose}
      busy={mutation.isPending}
    >
      <p>{t(deactivating ? 'users.deactivate.question' : 'users.reactivate.question', { name })}</p>
      {deactivating && <p className="muted">{t('users.deactivate.effect')}</p>}
      {mutation.isError && (
        <StatusMessage tone="error">{t('users.failed', { detail: errorDetail(mutation.error) })}</StatusMessage>
      )}
    </ConfirmDialog>
  );
}
