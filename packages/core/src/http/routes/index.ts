import type { Route } from '../router.js';
import { authRoutes } from './auth-routes.js';
import { catalogRoutes } from './catalog-routes.js';
import { channelRoutes } from './channel-routes.js';
import { customerRoutes } from './customer-routes.js';
import { overviewRoutes } from './overview-routes.js';
import { paymentRoutes } from './payment-routes.js';
import { usageRoutes } from './usage-routes.js';

/** Every route of the HTTP API. */
export const apiRoutes: Route[] = [
  ...overviewRoutes,
  ...authRoutes,
  ...catalogRoutes,
  ...customerRoutes,
  ...paymentRoutes,
  ...usageRoutes,
  ...channelRoutes,
];
