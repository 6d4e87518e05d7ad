/**
 * The JSON bodies Meter delivers. Amounts are decimal strings: keep them out of floating point.
 * Receivers should ignore event types they do not know, so new types can be added.
 */
export interface UsageChargedEvent {
  /** The usage event id, like `usageEventId`. */
  id: string;
  type: 'usage.charged';
  /** The delivery this body was sent in (signed; the same as X-Meter-Delivery). */
  deliveryId: string;
  /** When the usage was charged (ISO 8601). */
  createdAt: string;
  usageEventId: string;
  /** The customer's externalId. */
  customer: string;
  /** The metered service's slug. */
  service: string;
  metricKey: string;
  quantity: number;
  amount: string;
  asset: string;
}

export interface BalanceFundedEvent {
  /** The event id (`evt_...`), also listed by `GET /api/events`. */
  id: string;
  type: 'balance.funded';
  /** The delivery this body was sent in (signed; the same as X-Meter-Delivery). */
  deliveryId: string;
  /** When the balance was credited (ISO 8601). */
  createdAt: string;
  paymentRequestId: string;
  /** The customer's database id. */
  customerId: string;
  /** The customer's externalId; null when the customer no longer exists. */
  customer: string | null;
  amount: string;
  asset: string;
  provider: 'simulated' | 'live';
}

export type MeterWebhookEvent = UsageChargedEvent | BalanceFundedEvent;
