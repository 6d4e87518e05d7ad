import { WEBHOOK_EVENT_TYPES } from '../../domain/types.js';
import { parseInput, retryFailedSchema } from '../../service/schemas.js';
import type { Route } from '../router.js';
import { enumFilter, listResult, pageQuery, textFilter } from '../router.js';
import { serializeEvent, serializeUsageEvent, serializeWebhookDelivery } from '../serializers.js';

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
    path: '/api/services/:id/webhook-deliveries/retry-failed',
    auth: 'jwt',
    async handle({ meter, principal, params, json }) {
      const { since } = parseInput(retryFailedSchema, json());
      return { body: await meter.retryFailedDeliveries(principal.developerId, params.id!, new Date(since)) };
    },
  },
  {
    method: 'GET',
    path: '/api/events',
    auth: 'jwt',
    async handle({ meter, principal, request }) {
      const filter = { type: enumFilter(request.query, 'type', WEBHOOK_EVENT_TYPES) };
      return listResult(
        await meter.listEvents(principal.developerId, filter, pageQuery(request.query)),
        serializeEvent,
      );
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
