import { useState } from 'react';
import type { AttendantRow } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useAttendants } from '../api/get-attendants';
import { useRemoveAttendant } from '../api/remove-attendant';
import { RemoveAttendantRow } from './remove-attendant-row';

/** Remove Attendant (manager): the manager's attendants, each with a confirmed Remove. */
export function RemoveAttendants() {
  const { t } = useTranslation();
  const attendants = useAttendants();
  const mutation = useRemoveAttendant();
  const [notice, setNotice] = useState<string | null>(null);

  const remove = (attendant: AttendantRow) => {
    setNotice(null);
    mutation.mutate(attendant.userId, { onSuccess: ({ message }) => setNotice(message) });
  };

  if (attendants.isPending) return <Loading />;
  if (attendants.isError)
    return (
      <StatusMessage tone="error">
        {t('attendants.remove.loadError', { detail: errorDetail(attendants.error) })}
      </StatusMessage>
    );

  return (
    <>
      {notice && <StatusMessage tone="success">{notice}</StatusMessage>}
      {mutation.isError && (
        <StatusMessage tone="error" detail={errorDetail(mutation.error)}>
          {t('attendants.remove.failed')}
        </StatusMessage>
      )}
      {attendants.data.length === 0 ? (
        <p className="empty">{t('attendants.remove.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table-stack">
            <caption className="visually-hidden">{t('attendants.remove.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('attendants.remove.name')}</th>
                <th scope="col">{t('attendants.remove.phone')}</th>
                <th scope="col">{t('attendants.remove.device')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('attendants.remove.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {attendants.data.map((attendant) => (
                <RemoveAttendantRow
                  key={attendant.userId}
                  attendant={attendant}
                  busy={mutation.isPending && mutation.variables === attendant.userId}
                  onRemove={remove}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
