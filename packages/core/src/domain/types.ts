import type { AssetCode } from './money.js';
import type { PricingModel } from './pricing.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface Developer {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
}

export interface ApiKey {
  id: string;
  developerId: string;
  name: string;
  /** The first characters of the key, to recognise it; the key itself is never stored. */
  keyPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Events a metered service can receive at its webhook URL. */
export const WEBHOOK_EVENT_TYPES = ['usage.charged', 'balance.funded'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface MeteredService {
  id: string;
  developerId: string;
  name: string;
  slug: string;
  description: string | null;
  webhookUrl: string | null;
  webhookSecret: string;
  /** Which events are delivered to webhookUrl; `usage.charged` by default, `balance.funded` is opt-in. */
  webhookEvents: WebhookEventType[];
  defaultAsset: AssetCode;
  createdAt: Date;
  updatedAt: Date;
}

export interface PricingRule {
  id: string;
  developerId: string;
  serviceId: string;
  name: string;
  metricKey: string;
  unitName: string;
  pricingModel: PricingModel;
  /** Canonical decimal string in whole asset units, up to 12 decimals. */
  price: string;
  asset: AssetCode;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface Customer {
  id: string;
  developerId: string;
  externalId: string;
  name: string | null;
  email: string | null;
  metadata: JsonObject;
  createdAt: Date;
  updatedAt: Date;
}

export interface Balance {
  customerId: string;
  asset: AssetCode;
  available: bigint;
  totalFunded: bigint;
  totalSpent: bigint;
  updatedAt: Date;
}

export type PaymentStatus = 'pending' | 'paid' | 'expired' | 'cancelled';
export type ProviderMode = 'simulated' | 'live';

export interface PaymentRequest {
  id: string;
  developerId: string;
  customerId: string;
  amount: bigint;
  asset: AssetCode;
  /** As stored; see effectiveStatus() for the status a reader should see. */
  status: PaymentStatus;
  provider: ProviderMode;
  paymentUri: string;
  paymentHash: string | null;
  expiresAt: Date;
  paidAt: Date | null;
  metadata: JsonObject;
  createdAt: Date;
}

export type UsageStatus = 'charged' | 'insufficient_balance';

export interface UsageEvent {
  id: string;
  developerId: string;
  serviceId: string;
  /** The service's slug and the customer's external id as they were when the usage was recorded. */
  serviceSlug: string;
  customerId: string;
  customerExternalId: string;
  pricingRuleId: string;
  metricKey: string;
  quantity: number;
  /** The amount charged, or for a rejected attempt the amount that was required. */
  amount: bigint;
  asset: AssetCode;
  status: UsageStatus;
  idempotencyKey: string;
  /** Charged: the balance after the charge. Rejected: the balance that was available. */
  balanceAfter: bigint;
  metadata: JsonObject;
  createdAt: Date;
}

export type LedgerDirection = 'credit' | 'debit';
export type LedgerType = 'funding' | 'usage';

export interface LedgerEntry {
  id: string;
  developerId: string;
  customerId: string;
  asset: AssetCode;
  type: LedgerType;
  direction: LedgerDirection;
  amount: bigint;
  balanceAfter: bigint;
  referenceType: 'payment_request' | 'usage_event';
  referenceId: string;
  createdAt: Date;
}

export type WebhookDeliveryStatus = 'pending' | 'sent' | 'failed';

export interface WebhookAttempt {
  id: string;
  deliveryId: string;
  attemptedAt: Date;
  url: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export interface WebhookDelivery {
  id: string;
  developerId: string;
  serviceId: string;
  eventType: string;
  eventId: string;
  /** The exact body bytes sent on every attempt. */
  payload: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  /** When the dispatcher tries next; null once sent or failed. */
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  attempts: WebhookAttempt[];
}

/** A stored event (today: balance.funded), whether or not any webhook delivers it. */
export interface MeterEvent {
  id: string;
  developerId: string;
  type: WebhookEventType;
  /** The id of what the event is about (the payment request for balance.funded). */
  subjectId: string;
  /** The exact JSON body delivered to webhooks. */
  payload: string;
  createdAt: Date;
}
