import type { Alarm } from '@wv/contracts';
import { Suspense, useEffect } from 'react';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useTranslation } from '@/lib/i18n';
import { lazyWithPreload } from '@/lib/lazy-with-preload';
import { useFleetMachines } from '../api/get-fleet-machines';
import { useLiveFleet } from '../hooks/use-live-fleet';
import { HeadlineRow } from './headline-row';
import { MachineTable } from './machine-table';
import { NeedsAttention } from './needs-attention';
import './fleet.css';

// Leaflet is large: the map loads on its own, beside the table. Its download starts when the dashboard is first
// drawn, while the machines are being fetched, not after they arrive.
const FleetMap = lazyWithPreload(() => import('./fleet-map').then((m) => ({ default: m.FleetMap })));

interface FleetDashboardProps {
  showOwner: boolean;
  /** The active alarms, which the route reads from the alarms feature. */
  alarms: { data: Alarm[]; total: number } | undefined;
  alarmsError: boolean;
}

/**
 * The fleet dashboard (docs/web-app.md, "Fleet dashboard"): headline row, needs-attention panel, the map
 * and the machine table, both drawn from the same machines and kept live.
 */
export function FleetDashboard({ showOwner, alarms, alarmsError }: FleetDashboardProps) {
  const { t } = useTranslation();
  const machines = useFleetMachines();
  useLiveFleet();
  useEffect(() => void FleetMap.preload(), []);
  return (
    <div className="stack fleet-dashboard">
      <HeadlineRow />
      <div className="fleet-body">
        <NeedsAttention alarms={alarms} isError={alarmsError} machines={machines.data?.machines} />
        {machines.isError ? (
          <StatusMessage tone="error">{t('fleet.table.error')}</StatusMessage>
        ) : machines.data ? (
          <>
            <Suspense fallback={<Loading />}>
              <FleetMap machines={machines.data.machines} />
            </Suspense>
            <MachineTable machines={machines.data.machines} showOwner={showOwner} />
          </>
        ) : (
          // As tall as the map and the table to come, so that the page does not jump when they arrive.
          <div className="fleet-body-loading">
            <Loading />
          </div>
        )}
      </div>
    </div>
  );
}
