import { formatDateTime, useToday } from '@/lib/dates';
import { useTranslation } from '@/lib/i18n';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { errorDetail } from '@/lib/api-client';
import { useFleetOverview } from '../api/get-fleet-overview';
import { useLiveSalesViews } from '../hooks/use-live-sales-views';

/** Which machines are online now, kept current by `machine.status` events. */
export function MachineStatusList() {
  const { t } = useTranslation();
  const overview = useFleetOverview(useToday());
  useLiveSalesViews();

  if (overview.isPending) return <Loading />;
  if (overview.isError)
    return (
      <StatusMessage tone="error">
        {t('salesDashboard.status.loadError', { detail: errorDetail(overview.error) })}
      </StatusMessage>
    );
  if (!overview.data.machines.length) return <p className="empty">{t('salesDashboard.status.noDevices')}</p>;

  const online = overview.data.machines.filter((m) => m.online).length;
  return (
    <>
      <p className="summary-line">
        {t('salesDashboard.status.online', { online, total: overview.data.machines.length })}
      </p>
      <ul className="status-list" aria-label={t('salesDashboard.status.list')}>
        {overview.data.machines.map((machine) => (
          <li key={machine.machineId} className="status-item" data-machine={machine.machineId}>
            <span className="device-id">{machine.machineId}</span>
            <span className={machine.online ? 'status-pill status-online' : 'status-pill status-offline'}>
              {machine.online ? t('salesDashboard.card.online') : t('salesDashboard.card.offline')}
            </span>
            <span className="muted status-seen">
              {machine.lastSeen
                ? t('salesDashboard.status.lastSeen', { time: formatDateTime(machine.lastSeen) })
                : t('salesDashboard.status.neverSeen')}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
