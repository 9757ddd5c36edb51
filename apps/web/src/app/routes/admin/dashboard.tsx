import { FleetDashboardPage } from '../machines/fleet-dashboard-page';

/** Admin dashboard (/maindashboard): every machine on the platform, filterable by owner. */
export function AdminDashboardRoute() {
  return <FleetDashboardPage lead="Every machine on the platform." showOwner />;
}
