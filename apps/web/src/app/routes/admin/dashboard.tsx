import { Page } from '@/components/ui/page';
import { SalesDashboard } from '@/features/sales-dashboard/components/sales-dashboard';
import { machineLinks } from '../machines/machine-links';

/** Admin dashboard (/maindashboard): every machine's daily and monthly sales, with live charts. */
export function AdminDashboardRoute() {
  return (
    <Page title="Dashboard" lead="Every machine on the platform.">
      <SalesDashboard links={machineLinks} />
    </Page>
  );
}
