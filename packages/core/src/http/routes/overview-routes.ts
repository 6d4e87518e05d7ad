import type { Route } from '../router.js';
import { serializePaymentRequest, serializeSummary, serializeUsageEvent } from '../serializers.js';

export const overviewRoutes: Route[] = [
  {
    method: 'GET',
    path: '/health',
    auth: 'none',
    async handle() {
      return { body: { status: 'ok' } };
    },
  },
  {
    method: 'GET',
    path: '/api/channel/config',
    auth: 'none',
    async handle({ settings }) {
      return { body: settings.channel };
    },
  },
  {
    method: 'GET',
    path: '/api/dashboard/summary',
    auth: 'jwt',
    async handle({ meter, principal }) {
      const dev = principal.developerId;
      const [summary, usage, payments] = await Promise.all([
        meter.dashboardSummary(dev),
        meter.listUsageEvents(dev, {}, { limit: 10 }),
        meter.listPaymentRequests(dev, {}, { limit: 5 }),
      ]);
      return {
        body: {
          ...serializeSummary(summary),
          recentUsage: usage.items.map(serializeUsageEvent),
          recentPaymentRequests: payments.items.map(serializePaymentRequest),
        },
      };
    },
  },
];
