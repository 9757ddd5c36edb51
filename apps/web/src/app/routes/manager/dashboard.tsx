import { useTranslation } from '@/lib/i18n';
import { FleetDashboardPage } from '../machines/fleet-dashboard-page';

/** Manager dashboard (/manager/dashboard): the same as the admin's, for the manager's machines. */
export function ManagerDashboardRoute() {
  const { t } = useTranslation();
  return <FleetDashboardPage lead={t('roleScreens.managerDashboardLead')} showOwner={false} />;
}
