import { useTranslation } from '@/lib/i18n';
import { FleetDashboardPage } from '../machines/fleet-dashboard-page';

/** Admin dashboard (/maindashboard): every machine on the platform, filterable by owner. */
export function AdminDashboardRoute() {
  const { t } = useTranslation();
  return <FleetDashboardPage lead={t('adminScreens.dashboardLead')} showOwner />;
}
