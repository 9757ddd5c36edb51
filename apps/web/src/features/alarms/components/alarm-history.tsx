import { useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { AlarmList } from './alarm-list';

const HISTORY_PAGE_SIZE = 10;

/** Every alarm a machine has had, newest first, with the same actions as the Alarms screen. */
export function AlarmHistory({ machineId }: { machineId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  return (
    <AlarmList
      query={{ status: 'all', machineId, page, limit: HISTORY_PAGE_SIZE }}
      onPage={setPage}
      emptyText={t('alarms.historyEmpty')}
    />
  );
}
