import type { Route } from '../router.js';
import { enumFilter, listResult, pageQuery, textFilter } from '../router.js';
import { serializeUsageEvent, serializeWebhookDelivery } from '../serializers.js';

const USAGE_STATUSES = ['charged', 'insufficient_balance'] as const;
const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;

export const usageRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/usage-events',
    auth: 'usage',
    async handle({ meter, principal, json }) {
      return { body: await meter.recordUsage(principal.developerId, json() as never) };
    },
  },
  {
    method: 'GET',
    path: '/api/usage-events',
    auth: 'jwt',
    async handle({ meter, principal, request }) {
      const dev = principal.developerId;
      const customer = textFilter(request.query, 'customer');
      const service = textFilter(request.query, 'service');
      const filter = {
        status: enumFilter(request.query, 'status', USAGE_STATUSES),
        customerId: customer ? (await meter.getCustomerByExternalId(dev, customer)).id : undefined,
        serviceId: service ? (await meter.getServiceBySlug(dev, service)).id : undefined,
      };
      return listResult(
        await meter.listUsageEvents(dev, filter, pageQuery(request.query)),
        serializeUsageEvent,
      );
    },
  },
  {
    method: 'GET',
    path: '/api/webhook-deliveries',
    auth: 'jwt',
    async handle({ meter, principal, request }) {
      const filter = { status: enumFilter(request.query, 'status', DELIVERY_STATUSES) };
      return listResult(
        await meter.listWebhookDeliveries(principal.developerId, filter, pageQuery(request.query)),
        serializeWebhookDelivery,
      );
    },
  },
  {
    method: 'GET',
    path: '/api/webhook-deliveries/:id',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return {
        body: serializeWebhookDelivery(await meter.getWebhookDelivery(principal.developerId, params.id!)),
      };
    },
  },
  {
    method: 'POST',
    path: '/api/webhook-deliveries/:id/retry',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return {
        body: serializeWebhookDelivery(await meter.retryWebhookDelivery(principal.developerId, params.id!)),
      };
    },
  },
];
