import { useTranslation } from '@/lib/i18n';
import { errorDetail } from '@/lib/api-client';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import type { AlarmsQuery } from '../api/alarm-keys';
import { useAlarms } from '../api/get-alarms';
import { AlarmItem } from './alarm-item';
import { PageSteps } from '@/components/ui/page-steps';

interface AlarmListProps {
  query: AlarmsQuery;
  onPage: (page: number) => void;
  emptyText: string;
  /** Where a machine's id leads (its health page), when the reader may open it. */
  machineHref?: (machineId: string) => string;
}

/** A page of alarms, newest first, each with its actions and, on demand, its notes and messages. */
export function AlarmList({ query, onPage, emptyText, machineHref }: AlarmListProps) {
  const { t } = useTranslation();
  const alarms = useAlarms(query);

  if (alarms.isPending) return <Loading />;
  if (alarms.isError)
    return <StatusMessage tone="error">{t('alarms.loadError', { detail: errorDetail(alarms.error) })}</StatusMessage>;
  const { data, total } = alarms.data;
  return (
    <div className="stack alarm-list-block">
      <p className="muted alarm-total" aria-live="polite">
        {t('alarms.total', { count: total })}
      </p>
      {data.length === 0 ? (
        <p className="empty">{emptyText}</p>
      ) : (
        <ul className="alarm-list" aria-label={t('alarms.list')}>
          {data.map((alarm) => (
            <AlarmItem key={alarm.id} alarm={alarm} machineHref={machineHref} />
          ))}
        </ul>
      )}
      <PageSteps page={query.page} limit={query.limit} total={total} onPage={onPage} label={t('alarms.pagination')} />
    </div>
  );
}
