import { useMemo, useState } from 'react';
import type { AdminUserRow } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SelectField } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useAssignUserDevice } from '../api/assign-user-device';
import { useUnassignedEsp32Ids } from '../hooks/use-unassigned-esp32-ids';

interface AssignMachineDialogProps {
  user: AdminUserRow;
  /** Every user, for an attendant's choice: their manager's machines that have no attendant. */
  users: readonly AdminUserRow[];
  onClose: () => void;
  onDone: (notice: string) => void;
}

/**
 * Gives a user a machine (POST /add/user/devices). A manager or admin chooses among the unowned machines
 * (every id minus the owned ones); an attendant, who works at one machine, among their manager's machines
 * without an attendant (docs/rest-api.md, "Accounts and sessions").
 */
export function AssignMachineDialog({ user, users, onClose, onDone }: AssignMachineDialogProps) {
  const { t } = useTranslation();
  const isAttendant = user.role === 'attendant';
  const unowned = useUnassignedEsp32Ids({ enabled: !isAttendant });
  const choices = useMemo(
    () => (isAttendant ? attendantChoices(user, users) : unowned),
    [isAttendant, user, users, unowned],
  );
  const [machine, setMachine] = useState('');
  const [location, setLocation] = useState('');
  const [problem, setProblem] = useState<{ field: 'machine' | 'location'; text: string } | null>(null);
  const mutation = useAssignUserDevice();
  const name = `${user.firstName} ${user.lastName}`;
  const hasMachine = isAttendant && user.devices.length > 0;

  const confirm = () => {
    if (hasMachine) return onClose();
    if (!machine) return setProblem({ field: 'machine', text: t('users.assign.chooseMachine') });
    if (!location.trim()) return setProblem({ field: 'location', text: t('users.assign.enterLocation') });
    setProblem(null);
    mutation.mutate(
      { userId: user.userId, esp32Id: machine, machine_location: location.trim() },
      { onSuccess: () => onDone(t('users.assign.done', { machine, name })) },
    );
  };

  const placeholder =
    choices === undefined
      ? t('users.assign.loading')
      : choices.length
        ? t('users.assign.choose')
        : t('users.assign.noneFree');
  return (
    <ConfirmDialog
      title={t('users.assign.title', { name })}
      confirmLabel={t('users.assign.confirm')}
      cancelLabel={t('users.cancel')}
      confirmVariant="primary"
      onConfirm={confirm}
      onCancel={onClose}
      busy={mutation.isPending}
    >
      {isAttendant && <p className="muted">{t('users.assign.attendantLead')}</p>}
      {hasMachine ? (
        <StatusMessage tone="info">{t('users.assign.attendantHasOne')}</StatusMessage>
      ) : (
        <div className="form">
          <SelectField
            label={t('users.assign.machine')}
            markRequired
            value={machine}
            onChange={(event) => setMachine(event.target.value)}
            options={(choices ?? []).map((id) => ({ value: id, label: id }))}
            placeholder={placeholder}
            aria-invalid={problem?.field === 'machine' || undefined}
          />
          {problem?.field === 'machine' && (
            <small className="field-error" role="alert">
              {problem.text}
            </small>
          )}
          <TextField
            label={t('users.assign.location')}
            required
            value={location}
            onChange={(event) => setLocation(event.target.value)}
            error={problem?.field === 'location' ? problem.text : null}
          />
        </div>
      )}
      {mutation.isError && (
        <StatusMessage tone="error">{t('users.failed', { detail: errorDetail(mutation.error) })}</StatusMessage>
      )}
    </ConfirmDialog>
  );
}

/** The attendant's manager's machines that no attendant works at. */
function attendantChoices(attendant: AdminUserRow, users: readonly AdminUserRow[]): string[] {
  const manager = users.find((u) => u.userId === attendant.managerId);
  if (!manager) return [];
  const staffed = new Set(users.filter((u) => u.role === 'attendant').flatMap((u) => u.devices.map((d) => d.esp32Id)));
  return manager.devices
    .map((d) => d.esp32Id)
    .filter((id) => !staffed.has(id))
    .sort((a, b) => a.localeCompare(b));
}
