import { formatDateTime, useToday } from '@/lib/dates';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { errorDetail } from '@/lib/api-client';
import { useFleetOverview } from '../api/get-fleet-overview';
import { useLiveSalesViews } from '../hooks/use-live-sales-views';

/** Which machines are online now, kept current by `machine.status` events. */
export function MachineStatusList() {
  const overview = useFleetOverview(useToday());
  useLiveSalesViews();

  if (overview.isPending) return <Loading />;
  if (overview.isError)
    return <StatusMessage tone="error">Error loading machines: {errorDetail(overview.error)}</StatusMessage>;
  if (!overview.data.machines.length) return <p className="empty">No ESP devices assigned</p>;

  const online = overview.data.machines.filter((m) => m.online).length;
  return (
    <>
      <p className="summary-line">
        {online} of {overview.data.machines.length} online
      </p>
      <ul className="status-list" aria-label="Machine status">
        {overview.data.machines.map((machine) => (
          <li key={machine.machineId} className="status-item" data-machine={machine.machineId}>
            <span className="device-id">{machine.machineId}</span>
            <span className={machine.online ? 'status-pill status-online' : 'status-pill status-offline'}>
              {machine.online ? 'Online' : 'Offline'}
            </span>
            <span className="muted status-seen">
              {machine.lastSeen ? `Last seen ${formatDateTime(machine.lastSeen)}` : 'Never seen'}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
