import { useQueryClient } from '@tanstack/react-query';
import type { DailySummaryResponse, FleetOverview, MonthlySummaryResponse } from '@wv/contracts';
import { businessDate, monthOf } from '@/lib/dates';
import { useLiveConnect, useLiveEvent } from '@/lib/live';
import { queryKeys } from '@/lib/query-keys';
import {
  applyConfigApplied,
  applyMachineStatus,
  applyMonthlyDelta,
  applySale,
  applySummary,
  summaryDelta,
} from './sales-patches';

/**
 * Keeps the dashboard's cached summaries and overview current from Socket.IO (docs/architecture.md, "Modules and
 * conventions": events patch the query cache through the same keys), so that a sale shows without a reload. Whatever
 * was missed while the connection was down is fetched again when it comes (back) up.
 */
export function useLiveSalesViews(): void {
  const queryClient = useQueryClient();

  useLiveEvent('summary', (event) => {
    const dayKey = queryKeys.dailySummary(event.date);
    const day = queryClient.getQueryData<DailySummaryResponse>(dayKey);
    const month = monthOf(event.date);
    for (const [key, data] of queryClient.getQueriesData<MonthlySummaryResponse>({
      queryKey: queryKeys.monthlySummaryAll,
    })) {
      if (!data || monthOf(String(key[1])) !== month) continue;
      // Without the day as it was, the month's change is unknown: ask the server.
      if (day) queryClient.setQueryData(key, applyMonthlyDelta(data, event.machineId, summaryDelta(day, event)));
      else void queryClient.invalidateQueries({ queryKey: key, exact: true });
    }
    if (day) queryClient.setQueryData(dayKey, applySummary(day, event));
  });

  useLiveEvent('sale', (sale) => {
    const key = queryKeys.fleetOverview(businessDate(sale.time));
    queryClient.setQueryData<FleetOverview>(key, (data) => (data ? applySale(data, sale) : data));
  });

  useLiveEvent('machine.status', (event) => {
    queryClient.setQueriesData<FleetOverview>({ queryKey: queryKeys.fleetOverviewAll }, (data) =>
      data ? applyMachineStatus(data, event) : data,
    );
  });

  useLiveEvent('config.applied', (event) => {
    queryClient.setQueriesData<FleetOverview>({ queryKey: queryKeys.fleetOverviewAll }, (data) =>
      data ? applyConfigApplied(data, event.machineId, event.version) : data,
    );
  });

  useLiveConnect(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.dailySummaryAll });
    void queryClient.invalidateQueries({ queryKey: queryKeys.monthlySummaryAll });
    void queryClient.invalidateQueries({ queryKey: queryKeys.fleetOverviewAll });
  });
}
