import { FleetDashboardPage } from '../machines/fleet-dashboard-page';

/** Manager dashboard (/manager/dashboard): the same as the admin's, for the manager's machines. */
export function ManagerDashboardRoute() {
  return <FleetDashboardPage lead="The machines you own." showOwner={false} />;
}
