import type { Alarm } from '@wv/contracts';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useTranslation } from '@/lib/i18n';
import { useFleetMachines } from '../api/get-fleet-machines';
import { HeadlineRow } from './headline-row';
import { MachineTable } from './machine-table';
import { NeedsAttention } from './needs-attention';
import './fleet.css';

interface FleetDashboardProps {
  showOwner: boolean;
  /** The active alarms, which the route reads from the alarms feature. */
  alarms: { data: Alarm[]; total: number } | undefined;
  alarmsError: boolean;
}

/** The fleet dashboard (docs/web-app.md, "Fleet dashboard"): headline row, needs-attention panel, machine table. */
export function FleetDashboard({ showOwner, alarms, alarmsError }: FleetDashboardProps) {
  const { t } = useTranslation();
  const machines = useFleetMachines();
  return (
    <div className="stack fleet-dashboard">
      <HeadlineRow />
      <div className="fleet-body">
        <NeedsAttention alarms={alarms} isError={alarmsError} machines={machines.data?.machines} />
        {machines.isError ? (
          <StatusMessage tone="error">{t('fleet.table.error')}</StatusMessage>
        ) : machines.data ? (
          <MachineTable machines={machines.data.machines} showOwner={showOwner} />
        ) : (
          <Loading />
        )}
      </div>
    </div>
  );
}
