import { Page } from '@/components/ui/page';
import { SalesDashboard } from '@/features/sales-dashboard/components/sales-dashboard';
import { machineLinks } from '../machines/machine-links';

/** Manager dashboard (/manager/dashboard): the same as the admin's, for the manager's machines. */
export function ManagerDashboardRoute() {
  return (
    <Page title="Dashboard" lead="The machines you own.">
      <SalesDashboard links={machineLinks} />
    </Page>
  );
}
