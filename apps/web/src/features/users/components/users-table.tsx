import { useState } from 'react';
import type { AdminUserRow } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { Button } from '@/components/ui/button';
import { StatusMessage } from '@/components/ui/status-message';
import { AssignMachineDialog } from './assign-machine-dialog';
import { DeviceKeyDialog } from './device-key-dialog';
import { SetActiveDialog } from './set-active-dialog';
import { UnassignMachineDialog } from './unassign-machine-dialog';

/** The dialog open on the page, if any: one action on one user or one of their machines. */
type OpenAction =
  | { kind: 'assign'; user: AdminUserRow }
  | { kind: 'unassign'; user: AdminUserRow; machine: string }
  | { kind: 'active'; user: AdminUserRow }
  | { kind: 'rotate'; machine: string };

export const fullName = (user: Pick<AdminUserRow, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`;

/**
 * GET /admin/users as a table with the admin's actions on each account (docs/web-app.md, "Users"): assign or
 * unassign a machine, a new device key, deactivate or reactivate. Scrolls sideways on a phone rather than
 * squeezing the columns.
 */
export function UsersTable({ users }: { users: readonly AdminUserRow[] }) {
  const { t } = useTranslation();
  const session = useSession();
  const [open, setOpen] = useState<OpenAction | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const close = () => setOpen(null);
  const done = (text: string) => {
    setOpen(null);
    setNotice(text);
  };
  const start = (action: OpenAction) => {
    setNotice(null);
    setOpen(action);
  };
  // A dialog shows the user's row as the list has it now, not as it was when the button was pressed: an
  // action just done (say, an unassign) refetches the list, and a dialog opened before that answer lands
  // must not keep the old machines or status.
  const current = (user: AdminUserRow) => users.find((u) => u.userId === user.userId) ?? user;

  if (!users.length) return <p className="empty">{t('users.empty')}</p>;
  return (
    <div className="stack">
      {notice && <StatusMessage tone="success">{notice}</StatusMessage>}
      <div className="table-wrap">
        <table className="table table-stack">
          <caption className="visually-hidden">{t('users.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('users.column.name')}</th>
              <th scope="col">{t('users.column.username')}</th>
              <th scope="col">{t('users.column.email')}</th>
              <th scope="col">{t('users.column.phone')}</th>
              <th scope="col">{t('users.column.location')}</th>
              <th scope="col">{t('users.column.role')}</th>
              <th scope="col">{t('users.column.status')}</th>
              <th scope="col">{t('users.column.devices')}</th>
              <th scope="col">{t('users.column.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => {
              const name = fullName(user);
              const self = user.userId === session?.userId;
              return (
                <tr key={user.userId}>
                  <td data-label={t('users.column.name')}>
                    <span translate="no">{name}</span>
                    {self && <span className="muted"> ({t('users.you')})</span>}
                  </td>
                  <td data-label={t('users.column.username')} translate="no">
                    {user.username}
                  </td>
                  <td data-label={t('users.column.email')}>{user.email ?? '—'}</td>
                  <td data-label={t('users.column.phone')} className="nowrap">
                    {user.phoneNumber}
                  </td>
                  <td data-label={t('users.column.location')} translate="no">
                    {user.location}
                  </td>
                  <td data-label={t('users.column.role')}>
                    <span className={`badge badge-${user.role}`}>{t(`users.role.${user.role}`)}</span>
                  </td>
                  <td data-label={t('users.column.status')}>
                    {user.active ? (
                      t('users.active')
                    ) : (
                      <span className="badge badge-inactive">{t('users.deactivated')}</span>
                    )}
                  </td>
                  <td data-label={t('users.column.devices')}>
                    {user.devices.length ? (
                      <ul className="plain-list">
                        {user.devices.map((device) => (
                          <li key={device.esp32Id}>
                            <strong>{device.esp32Id}</strong>
                            {device.machine_location && <span className="muted"> · {device.machine_location}</span>}
                            <span className="actions">
                              <Button
                                variant="ghost"
                                aria-label={t('users.action.unassignFor', { machine: device.esp32Id, name })}
                                onClick={() => start({ kind: 'unassign', user, machine: device.esp32Id })}
                              >
                                {t('users.action.unassign')}
                              </Button>
                              <Button
                                variant="ghost"
                                aria-label={t('users.action.rotateKeyFor', { machine: device.esp32Id })}
                                onClick={() => start({ kind: 'rotate', machine: device.esp32Id })}
                              >
                                {t('users.action.rotateKey')}
                              </Button>
                            </span>
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <span className="muted">{t('users.none')}</span>
                    )}
                  </td>
                  <td data-label={t('users.column.actions')}>
                    <span className="actions">
                      <Button
                        variant="secondary"
                        aria-label={t('users.action.assignFor', { name })}
                        onClick={() => start({ kind: 'assign', user })}
                      >
                        {t('users.action.assign')}
                      </Button>
                      {!self && (
                        <Button
                          variant={user.active ? 'danger' : 'secondary'}
                          aria-label={t(user.active ? 'users.action.deactivateFor' : 'users.action.reactivateFor', {
                            name,
                          })}
                          onClick={() => start({ kind: 'active', user })}
                        >
                          {t(user.active ? 'users.action.deactivate' : 'users.action.reactivate')}
                        </Button>
                      )}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {open?.kind === 'assign' && (
        <AssignMachineDialog user={current(open.user)} users={users} onClose={close} onDone={done} />
      )}
      {open?.kind === 'unassign' && (
        <UnassignMachineDialog user={current(open.user)} machine={open.machine} onClose={close} onDone={done} />
      )}
      {open?.kind === 'active' && <SetActiveDialog user={current(open.user)} onClose={close} onDone={done} />}
      {open?.kind === 'rotate' && <DeviceKeyDialog machine={open.machine} onClose={close} />}
    </div>
  );
}
