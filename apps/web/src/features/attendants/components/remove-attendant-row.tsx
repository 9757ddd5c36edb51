import { useState } from 'react';
import type { AttendantRow } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';

interface RemoveAttendantRowProps {
  attendant: AttendantRow;
  busy: boolean;
  onRemove: (attendant: AttendantRow) => void;
}

/** One attendant; Remove asks for confirmation in place before anything is sent. */
export function RemoveAttendantRow({ attendant, busy, onRemove }: RemoveAttendantRowProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const name = `${attendant.firstName} ${attendant.lastName}`;
  return (
    <tr>
      <td data-label={t('attendants.remove.name')}>{name}</td>
      <td data-label={t('attendants.remove.phone')} className="nowrap">
        {attendant.phoneNumber}
      </td>
      <td data-label={t('attendants.remove.device')}>{attendant.esp32Id ?? '—'}</td>
      <td className="cell-actions">
        {confirming ? (
          <div className="inline-confirm" role="group" aria-label={t('attendants.remove.confirmGroup', { name })}>
            <span>{t('attendants.remove.confirmText', { name })}</span>
            <div className="actions">
              <Button variant="danger" busy={busy} onClick={() => onRemove(attendant)}>
                {t('attendants.remove.confirm')}
              </Button>
              <Button variant="secondary" onClick={() => setConfirming(false)}>
                {t('common.cancel')}
              </Button>
            </div>
          </div>
        ) : (
          <Button
            variant="danger"
            aria-label={t('attendants.remove.removeName', { name })}
            onClick={() => setConfirming(true)}
          >
            {t('attendants.remove.remove')}
          </Button>
        )}
      </td>
    </tr>
  );
}
