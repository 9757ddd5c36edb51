import { memo, Suspense, useEffect, useRef, useState } from 'react';
import { useNearViewport } from '@/hooks/use-near-viewport';
import { formatCalendarDate, useToday } from '@/lib/dates';
import { useTranslation } from '@/lib/i18n';
import { lazyWithPreload } from '@/lib/lazy-with-preload';
import { Loading } from '@/components/ui/loading';
import { LiveIndicator } from '@/components/ui/live-indicator';
import { StatusMessage } from '@/components/ui/status-message';
import { useDailySummary } from '../api/get-daily-summary';
import { useFleetOverview } from '../api/get-fleet-overview';
import { useMonthlySummary } from '../api/get-monthly-summary';
import { useLiveSalesViews } from '../hooks/use-live-sales-views';
import { MachineSummaryCard, type MachineLinks } from './machine-summary-card';

// recharts is large: the charts load on their own, beside the figures; the download starts when the dashboard is
// first drawn. They are drawn again only when the overview changes, not on every render of the page around them.
const FleetCharts = lazyWithPreload(() => import('./fleet-charts').then((m) => ({ default: memo(m.default) })));

/**
 * The admin's and the manager's sales of a day (docs/web-app.md, "Screens"): a date picker (today by default, in
 * the app's time zone) and live charts over the caller's scope (the server scopes); given a machine, that
 * machine's own view instead: its card with the day's and the month's summaries.
 */
export function SalesDashboard({ links, machineId }: { links: MachineLinks; machineId?: string }) {
  const { t } = useTranslation();
  const today = useToday();
  const [picked, setPicked] = useState<string | null>(null);
  const date = picked ?? today;
  const overview = useFleetOverview(date);
  useLiveSalesViews();
  useEffect(() => {
    if (machineId === undefined) void FleetCharts.preload();
  }, [machineId]);
  const chartsRef = useRef<HTMLElement>(null);
  const chartsNear = useNearViewport(chartsRef);

  return (
    <div className="stack">
      <div className="toolbar">
        <div className="field field-inline">
          <label htmlFor="dashboard-date">{t('salesDashboard.date')}</label>
          <input
            id="dashboard-date"
            type="date"
            value={date}
            max={today}
            required
            onChange={(event) => setPicked(event.target.value || null)}
          />
        </div>
        <LiveIndicator />
      </div>

      {machineId === undefined && (
        <section ref={chartsRef} aria-label={t('salesDashboard.charts')} className="charts">
          <h2 className="section-title">{date === today ? t('salesDashboard.today') : formatCalendarDate(date)}</h2>
          {overview.data && chartsNear ? (
            <Suspense fallback={<Loading />}>
              <FleetCharts overview={overview.data} />
            </Suspense>
          ) : overview.isError ? (
            <p className="empty">{t('salesDashboard.chartsUnavailable')}</p>
          ) : (
            <Loading />
          )}
        </section>
      )}

      {machineId !== undefined && (
        <section aria-label={t('salesDashboard.machines')}>
          <h2 className="section-title">{t('salesDashboard.machines')}</h2>
          <MachineCards date={date} overview={overview.data} links={links} only={machineId} />
        </section>
      )}
    </div>
  );
}

interface MachineCardsProps {
  date: string;
  overview: ReturnType<typeof useFleetOverview>['data'];
  links: MachineLinks;
  /** The one machine to show. */
  only: string;
}

/**
 * The cards follow the daily list, or the monthly list when the daily one is empty. Only a machine's view asks
 * for the two lists (the fleet's charts draw from the overview alone).
 */
function MachineCards({ date, overview, links, only }: MachineCardsProps) {
  const { t } = useTranslation();
  const daily = useDailySummary(date);
  const monthly = useMonthlySummary(date);
  if (daily.isError || monthly.isError) {
    return <StatusMessage tone="error">{t('salesDashboard.machineError')}</StatusMessage>;
  }
  if (!daily.data || !monthly.data) return <Loading />;

  const dailyRows = daily.data.dailyData;
  const monthlyRows = monthly.data.monthlyData;
  const machineIds = (dailyRows.length ? dailyRows : monthlyRows)
    .map((row) => row.machineId)
    .filter((id) => id === only);
  if (!machineIds.length) return <p className="empty">{t('salesDashboard.noMachines')}</p>;

  return (
    <div className="machine-grid">
      {machineIds.map((machineId) => (
        <MachineSummaryCard
          key={machineId}
          machineId={machineId}
          daily={dailyRows.find((row) => row.machineId === machineId)}
          monthly={monthlyRows.find((row) => row.machineId === machineId)}
          info={overview?.machines.find((m) => m.machineId === machineId)}
          links={links}
        />
      ))}
    </div>
  );
}
