import type { RetryFailedInput, WebhookDeliveryStatus, WebhookEventType } from '@meter/core';
import type { Http } from './http.js';
import type { PageParams, StoredEvent, WebhookDelivery } from './types.js';

const id = encodeURIComponent;

export interface WebhookDeliveryListParams extends PageParams {
  status?: WebhookDeliveryStatus;
}

export interface EventListParams extends PageParams {
  type?: WebhookEventType;
}

export function webhookDeliveriesResource(http: Http) {
  return {
    /** GET /api/webhook-deliveries: each delivery with its attempts. */
    list(params: WebhookDeliveryListParams = {}) {
      return http.list<WebhookDelivery>('/api/webhook-deliveries', { ...params });
    },
    /** GET /api/webhook-deliveries/:id. */
    get(deliveryId: string) {
      return http.send<WebhookDelivery>({ method: 'GET', path: `/api/webhook-deliveries/${id(deliveryId)}` });
    },
    /** POST /api/webhook-deliveries/:id/retry: one attempt now, with the service's current URL and secret. */
    retry(deliveryId: string) {
      return http.send<WebhookDelivery>({
        method: 'POST',
        path: `/api/webhook-deliveries/${id(deliveryId)}/retry`,
      });
    },
    /** POST /api/services/:id/webhook-deliveries/retry-failed: requeues failed deliveries since a time. */
    retryFailed(serviceId: string, input: RetryFailedInput) {
      return http.send<{ requeued: number }>({
        method: 'POST',
        path: `/api/services/${id(serviceId)}/webhook-deliveries/retry-failed`,
        body: input,
      });
    },
  };
}

export function eventsResource(http: Http) {
  return {
    /** GET /api/events: stored events (e.g. `balance.funded`), newest first. */
    list(params: EventListParams = {}) {
      return http.list<StoredEvent>('/api/events', { ...params });
    },
  };
}
