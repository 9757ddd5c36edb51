import { foundationRoutes } from './routes/foundation.routes.js';
import { ledgerRoutes } from './routes/ledger.routes.js';
import { alarmRoutes } from './alarm/alarm.routes.js';
import { notificationRoutes } from './notification/notification.routes.js';
import { salesViewRoutes } from './routes/sales-view.routes.js';
import { offlineSalesRoutes } from './routes/offline-sales.routes.js';
import { paymentRoutes } from './payment/payment.routes.js';
import { fleetRoutes } from './fleet/fleet.routes.js';
import { accountRoutes } from './user/account.routes.js';

export { salesViewRoutes } from './routes/sales-view.routes.js';
export { ledgerRoutes } from './routes/ledger.routes.js';
export { alarmRoutes } from './alarm/alarm.routes.js';
export { notificationRoutes } from './notification/notification.routes.js';
export { offlineSalesRoutes } from './routes/offline-sales.routes.js';
export { paymentRoutes } from './payment/payment.routes.js';
export { fleetRoutes } from './fleet/fleet.routes.js';
export { accountRoutes, userDeviceParamSchema, refreshResponseSchema } from './user/account.routes.js';
export type { UserDeviceParam, RefreshResponse } from './user/account.routes.js';
export { route, page, type Access, type RouteDef } from './routes/route-def.js';

/**
 * Every HTTP route of the API: the controllers bind to these, the OpenAPI document is generated
 * from them, and the HTTP fuzzer walks them. A route missing here cannot be served.
 */
export const apiRoutes = {
  ...foundationRoutes,
  ...ledgerRoutes,
  ...salesViewRoutes,
  ...alarmRoutes,
  ...offlineSalesRoutes,
  ...notificationRoutes,
  ...paymentRoutes,
  ...fleetRoutes,
  ...accountRoutes,
};

export type ApiRouteName = keyof typeof apiRoutes;
