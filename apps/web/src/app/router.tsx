import { createBrowserRouter, type RouteObject } from 'react-router';
import type { Role } from '@wv/contracts';
import { paths } from '@/config/paths';
import { setUnauthorizedHandler } from '@/lib/api-client';
import { SessionGuard } from '@/features/auth/components/session-guard';
import { RootLayout } from './root-layout';
import { AddEsp32Route } from './routes/admin/add-esp32';
import { AlarmsRoute } from './routes/alarms/alarms';
import { AuditRoute } from './routes/admin/audit';
import { AdminDashboardRoute } from './routes/admin/dashboard';
import { AdminProfileRoute } from './routes/admin/profile';
import { CreateUserRoute } from './routes/admin/register';
import { AdminSettingsRoute } from './routes/admin/settings';
import { UsersRoute } from './routes/admin/users';
import { AttendantAccountRoute } from './routes/attendant/account';
import { AttendantCardsRoute } from './routes/attendant/cards';
import { AttendantDashboardRoute } from './routes/attendant/dashboard';
import { RequestFloatRoute } from './routes/attendant/float';
import { DeviceSettingsRoute } from './routes/machines/device-settings';
import { MachineHealthRoute } from './routes/machines/machine-health';
import { MachineViewRoute } from './routes/machines/machine-view';
import { TransactionsRoute } from './routes/machines/transactions';
import { ApproveFloatRoute } from './routes/manager/approve-float';
import { CardInfoRoute } from './routes/manager/card-info';
import { CardSummaryRoute } from './routes/manager/card-summary';
import { ManagerDashboardRoute } from './routes/manager/dashboard';
import { MachineActivityRoute } from './routes/manager/machine-activity';
import { MachineUsageRoute } from './routes/manager/machine-usage';
import { MyAccountRoute } from './routes/manager/my-account';
import { RegisterAttendantRoute } from './routes/manager/register-attendant';
import { RemoveAttendantRoute } from './routes/manager/remove-attendant';
import { NotFoundRoute } from './routes/not-found';
import { PaymentsRoute } from './routes/payments/payments';
import { AccountManagementRoute } from './routes/public/account-management';
import { GenericRegisterRoute } from './routes/public/generic-register';
import { LegacyRegisterRoute } from './routes/public/legacy-register';
import { LoginRoute } from './routes/public/login';
import { LogoutRoute } from './routes/public/logout';
import { WelcomeRoute } from './routes/public/welcome';
import { RouteError } from './routes/route-error';

const { admin, manager, attendant } = paths;

/**
 * A machine's own pages are manager routes in the route table (docs/web-app.md, "Routes"), but the admin's dashboard
 * links to them too and the API lets an admin read and configure any machine.
 */
const MACHINE_ROLES: readonly Role[] = ['manager', 'admin'];

/** Alarms concern every signed-in role: an attendant acknowledges the alarms of their machine. */
const EVERY_ROLE: readonly Role[] = ['admin', 'manager', 'attendant'];

/** The route table (docs/web-app.md, "Routes"): public routes, then one guarded group per role. */
const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: paths.home.path, element: <WelcomeRoute /> },
      { path: paths.login.path, element: <LoginRoute /> },
      { path: paths.logout.path, element: <LogoutRoute /> },
      { path: paths.accountManagement.path, element: <AccountManagementRoute /> },
      { path: paths.legacyRegister.path, element: <LegacyRegisterRoute /> },
      { path: paths.genericRegister.path, element: <GenericRegisterRoute /> },
      {
        element: <SessionGuard role="admin" />,
        children: [
          { path: admin.dashboard.path, element: <AdminDashboardRoute /> },
          { path: admin.addEsp32.path, element: <AddEsp32Route /> },
          { path: admin.register.path, element: <CreateUserRoute /> },
          { path: admin.users.path, element: <UsersRoute /> },
          { path: admin.profile.path, element: <AdminProfileRoute /> },
          { path: admin.settings.path, element: <AdminSettingsRoute /> },
          { path: admin.audit.path, element: <AuditRoute /> },
        ],
      },
      {
        element: <SessionGuard role="manager" />,
        children: [
          { path: manager.dashboard.path, element: <ManagerDashboardRoute /> },
          { path: manager.approveFloat.path, element: <ApproveFloatRoute /> },
          { path: manager.cardInfo.path, element: <CardInfoRoute /> },
          { path: manager.cardInfoSummary.path, element: <CardSummaryRoute /> },
          { path: manager.machineUsage.path, element: <MachineUsageRoute /> },
          { path: manager.machineActivity.path, element: <MachineActivityRoute /> },
          { path: manager.registerAttendant.path, element: <RegisterAttendantRoute /> },
          { path: manager.removeAttendant.path, element: <RemoveAttendantRoute /> },
          { path: manager.profile.path, element: <MyAccountRoute /> },
        ],
      },
      {
        element: <SessionGuard role={MACHINE_ROLES} />,
        children: [
          { path: manager.machineCard.path, element: <TransactionsRoute kind="card" /> },
          { path: manager.machineCoin.path, element: <TransactionsRoute kind="coin" /> },
          { path: manager.device.path, element: <DeviceSettingsRoute /> },
          { path: manager.machineHealth.path, element: <MachineHealthRoute /> },
          { path: manager.machine.path, element: <MachineViewRoute /> },
          { path: paths.payments.path, element: <PaymentsRoute /> },
        ],
      },
      {
        element: <SessionGuard role={EVERY_ROLE} />,
        children: [{ path: paths.alarms.path, element: <AlarmsRoute /> }],
      },
      {
        element: <SessionGuard role="attendant" />,
        children: [
          { path: attendant.dashboard.path, element: <AttendantDashboardRoute /> },
          { path: attendant.float.path, element: <RequestFloatRoute /> },
          { path: attendant.cards.path, element: <AttendantCardsRoute /> },
          { path: attendant.account.path, element: <AttendantAccountRoute /> },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export const router = createBrowserRouter(routes);

// A call answering 401 has already cleared the session (api-client); send the user to sign in again.
setUnauthorizedHandler(() => void router.navigate(paths.login.getHref(), { replace: true }));
