import { useTranslation } from '@/lib/i18n';
import { useAttendantInfo } from '../api/get-attendant-info';

/** 'Attendant: First Last', or 'Attendant: Not Assigned' when the server answers non-OK. */
export function AttendantName({ esp32Id }: { esp32Id: string }) {
  const { t } = useTranslation();
  const info = useAttendantInfo(esp32Id);
  const name = info.data
    ? `${info.data.firstName} ${info.data.lastName}`
    : info.isError
      ? t('attendants.notAssigned')
      : '…';
  return (
    <span className="attendant-name">
      <span className="muted">{t('attendants.name')}</span> {name}
    </span>
  );
}
