import type { AcceptedEventStore } from './event-store.js';
import type { MeterWebhookEvent } from './events.js';
import type { WebhookHeaders } from './headers.js';
import { type RawBody, verifyWebhook, type WebhookFailureReason } from './verify-webhook.js';

export interface WebhookDeliveryInfo {
  deliveryId: string;
  eventType: string;
  timestamp: number;
}

export interface WebhookReceiverOptions {
  /** The service's webhook secret. Give `secret` or `secrets`. */
  secret?: string;
  /** Several secrets while one is rotated: a delivery signed with any of them is accepted. */
  secrets?: readonly string[];
  /** Where accepted deliveries are recorded; the answer is 200 only once it has returned. */
  store: AcceptedEventStore;
  /** Default 5 minutes. */
  toleranceMs?: number;
  /**
   * Runs once per delivery, after the store accepted it and before the 200 goes out; never
   * for a duplicate. If it throws, the answer is still 200 (the event is safely stored and a
   * retry would only be a duplicate): handle the failure from the store, which holds the event.
   */
  onEvent?: (event: MeterWebhookEvent, delivery: WebhookDeliveryInfo) => void | Promise<void>;
  /** Store and onEvent failures; default console.error. */
  onError?: (error: unknown, context: { stage: 'store' | 'onEvent'; deliveryId: string }) => void;
  /** The clock, in ms; default Date.now. */
  now?: () => number;
}

export interface WebhookRequest {
  rawBody: RawBody;
  headers: WebhookHeaders;
}

export interface WebhookResponse {
  status: number;
  body: unknown;
}

export interface WebhookReceiver {
  /** Verifies, records and answers one delivery. Throws TypeError only for a parsed body. */
  handle(request: WebhookRequest): Promise<WebhookResponse>;
}

const STATUS: Record<WebhookFailureReason, number> = {
  missing_timestamp: 401,
  invalid_timestamp: 401,
  timestamp_out_of_tolerance: 401,
  missing_signature: 401,
  invalid_signature: 401,
  event_type_mismatch: 401,
  delivery_id_mismatch: 401,
  missing_delivery_id: 400,
  invalid_body: 400,
};

/**
 * A framework-neutral receiver: 401 for a delivery that is not authentic or not fresh, 400
 * for a body that is not JSON, 503 when the store fails (Meter retries), and 200 once the
 * delivery is durably recorded, or was already (a duplicate, answered without onEvent).
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const secrets = [...(options.secrets ?? []), ...(options.secret !== undefined ? [options.secret] : [])];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError(
      'createWebhookReceiver: give the webhook secret as `secret` or `secrets`; an empty one is refused ' +
        '(is its environment variable set?)',
    );
  }
  if (!options.store || typeof options.store.accept !== 'function') {
    throw new TypeError('createWebhookReceiver: `store` must have an accept(deliveryId, event) method');
  }
  const { store, onEvent } = options;
  const onError =
    options.onError ??
    ((error, context) =>
      console.error(`meter webhook ${context.deliveryId}: ${context.stage} failed`, error));

  return {
    async handle({ rawBody, headers }) {
      const check = verifyWebhook({
        rawBody,
        headers,
        secret: secrets,
        toleranceMs: options.toleranceMs,
        now: options.now?.() ?? Date.now(),
      });
      if (!check.ok) {
        return { status: STATUS[check.reason], body: { error: check.reason, message: check.message } };
      }
      const { event, deliveryId, eventType, timestamp } = check;
      let outcome: Awaited<ReturnType<AcceptedEventStore['accept']>>;
      try {
        outcome = await store.accept(deliveryId, event);
      } catch (error) {
        onError(error, { stage: 'store', deliveryId });
        // Details go to onError only: this answer travels back to Meter and is stored with the attempt.
        return {
          status: 503,
          body: { error: 'not_accepted', message: 'The event could not be stored; try again later.' },
        };
      }
      if (outcome === 'accepted' && onEvent) {
        try {
          await onEvent(event, { deliveryId, eventType, timestamp });
        } catch (error) {
          onError(error, { stage: 'onEvent', deliveryId });
        }
      }
      return { status: 200, body: { received: true, duplicate: outcome === 'duplicate' } };
    },
  };
}
