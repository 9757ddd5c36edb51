import { Page } from '@/components/ui/page';
import { useTranslation } from '@/lib/i18n';
import { useAlarms } from '@/features/alarms/api/get-alarms';
import { FleetDashboard } from '@/features/fleet/components/fleet-dashboard';
import { SalesDashboard } from '@/features/sales-dashboard/components/sales-dashboard';
import { machineLinks } from './machine-links';

/** The first page of active alarms feeds the needs-attention panel; the alarms page has the rest. */
const ATTENTION_QUERY = { status: 'active', page: 1, limit: 100 } as const;

/**
 * The admin's and the manager's dashboard (docs/web-app.md, "Fleet dashboard"): the headline row, the machines that
 * need attention and the machine table, then the day's charts. A row leads to the machine's own view.
 */
export function FleetDashboardPage({ lead, showOwner }: { lead: string; showOwner: boolean }) {
  const { t } = useTranslation();
  const alarms = useAlarms(ATTENTION_QUERY);
  return (
    <Page title={t('roleScreens.dashboard')} lead={lead}>
      <div className="stack">
        <FleetDashboard showOwner={showOwner} alarms={alarms.data} alarmsError={alarms.isError} />
        <SalesDashboard links={machineLinks} />
      </div>
    </Page>
  );
}
