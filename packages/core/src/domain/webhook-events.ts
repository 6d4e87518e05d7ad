import { type AssetCode, formatAmount } from './money.js';
import type { PaymentRequest } from './types.js';

/**
 * The JSON bodies Meter delivers to webhooks, and their builders. Defined once here: the sender
 * builds exactly these shapes and @meter/client's receivers type them with the same interfaces.
 * Amounts are decimal strings: keep them out of floating point.
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

/** The exact `usage.charged` body; it is stored once and sent byte-identical on every attempt. */
export function usageChargedPayload(input: {
  deliveryId: string;
  usageEventId: string;
  customer: string;
  service: string;
  metricKey: string;
  quantity: number;
  amount: bigint;
  asset: AssetCode;
  createdAt: Date;
}): string {
  const body: UsageChargedEvent = {
    id: input.usageEventId,
    type: 'usage.charged',
    // Inside the signed body, so a receiver can trust it for de-duplication (headers are not signed).
    deliveryId: input.deliveryId,
    createdAt: input.createdAt.toISOString(),
    usageEventId: input.usageEventId,
    customer: input.customer,
    service: input.service,
    metricKey: input.metricKey,
    quantity: input.quantity,
    amount: formatAmount(input.amount, input.asset),
    asset: input.asset,
  };
  return JSON.stringify(body);
}

/**
 * The exact `balance.funded` body. With a deliveryId it is one delivery's body (signed, so
 * receivers can trust it); without, it is the stored event, shared by all its deliveries.
 */
export function balanceFundedPayload(input: {
  eventId: string;
  deliveryId?: string;
  request: PaymentRequest;
  customerExternalId: string | null;
  now: Date;
}): string {
  const body: Omit<BalanceFundedEvent, 'deliveryId'> & { deliveryId?: string } = {
    id: input.eventId,
    type: 'balance.funded',
    ...(input.deliveryId ? { deliveryId: input.deliveryId } : {}),
    createdAt: input.now.toISOString(),
    paymentRequestId: input.request.id,
    customerId: input.request.customerId,
    customer: input.customerExternalId,
    amount: formatAmount(input.request.amount, input.request.asset),
    asset: input.request.asset,
    provider: input.request.provider,
  };
  return JSON.stringify(body);
}
