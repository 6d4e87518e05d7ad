import type {
  ApiKey,
  AssetCode,
  Balance,
  Customer,
  Developer,
  JsonObject,
  LedgerEntry,
  MeterEvent,
  MeteredService,
  PaymentRequest,
  PricingRule,
  UsageEvent,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEventType,
} from '@meter/core';
import { toBigInt, toNumber } from './dialect.js';

/** A row as the driver returns it; the mappers below normalise every driver's types. */
export type Row = Record<string, unknown>;

const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v == null ? null : String(v));
const date = (v: unknown): Date => new Date(toNumber(v));
const dateOrNull = (v: unknown): Date | null => (v == null ? null : date(v));
const numOrNull = (v: unknown): number | null => (v == null ? null : toNumber(v));
const json = (v: unknown): JsonObject => JSON.parse(String(v)) as JsonObject;
const asset = (v: unknown): AssetCode => String(v) as AssetCode;

/** `service_id|metric_key|asset` for an active rule; NULL (never equal in a unique index) when inactive. */
export function activeKey(
  rule: Pick<PricingRule, 'serviceId' | 'metricKey' | 'asset' | 'active'>,
): string | null {
  return rule.active ? `${rule.serviceId}|${rule.metricKey}|${rule.asset}` : null;
}

export const toDeveloper = (r: Row): Developer => ({
  id: str(r.id),
  email: str(r.email),
  name: str(r.name),
  createdAt: date(r.created_at),
});

export const toApiKey = (r: Row): ApiKey => ({
  id: str(r.id),
  developerId: str(r.developer_id),
  name: str(r.name),
  keyPrefix: str(r.key_prefix),
  createdAt: date(r.created_at),
  lastUsedAt: dateOrNull(r.last_used_at),
  revokedAt: dateOrNull(r.revoked_at),
});

export const toService = (r: Row): MeteredService => ({
  id: str(r.id),
  developerId: str(r.developer_id),
  name: str(r.name),
  slug: str(r.slug),
  description: strOrNull(r.description),
  webhookUrl: strOrNull(r.webhook_url),
  webhookSecret: str(r.webhook_secret),
  webhookEvents: str(r.webhook_events ?? 'usage.charged')
    .split(',')
    .filter(Boolean) as WebhookEventType[],
  defaultAsset: asset(r.default_asset),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

export const toPricingRule = (r: Row): PricingRule => ({
  id: str(r.id),
  developerId: str(r.developer_id),
  serviceId: str(r.service_id),
  name: str(r.name),
  metricKey: str(r.metric_key),
  unitName: str(r.unit_name),
  pricingModel: str(r.pricing_model) as PricingRule['pricingModel'],
  price: str(r.price),
  asset: asset(r.asset),
  active: r.active_key != null,
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

export const toCustomer = (r: Row): Customer => ({
  id: str(r.id),
  developerId: str(r.developer_id),
  externalId: str(r.external_id),
  name: strOrNull(r.name),
  email: strOrNull(r.email),
  metadata: json(r.metadata),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

export const toBalance = (r: Row): Balance => ({
  customerId: str(r.customer_id),
  asset: asset(r.asset),
  available: toBigInt(r.available),
  totalFunded: toBigInt(r.total_funded),
  totalSpent: toBigInt(r.total_spent),
  updatedAt: date(r.updated_at),
});

export const toPaymentRequest = (r: Row): PaymentRequest => ({
  id: str(r.id),
  developerId: str(r.developer_id),
  customerId: str(r.customer_id),
  amount: toBigInt(r.amount),
  asset: asset(r.asset),
  status: str(r.status) as PaymentRequest['status'],
  provider: str(r.provider) as PaymentRequest['provider'],
  paymentUri: str(r.payment_uri),
  paymentHash: strOrNull(r.payment_hash),
  expiresAt: date(r.expires_at),
  paidAt: dateOrNull(r.paid_at),
  metadata: json(r.metadata),
  createdAt: date(r.created_at),
});

export const toUsageEvent = (r: Row): UsageEvent => ({
  id: str(r.id),
  developerId: str(r.developer_id),
  serviceId: str(r.service_id),
  serviceSlug: str(r.service_slug),
  customerId: str(r.customer_id),
  customerExternalId: str(r.customer_external_id),
  pricingRuleId: str(r.pricing_rule_id),
  metricKey: str(r.metric_key),
  quantity: Number(str(r.quantity)),
  amount: toBigInt(r.amount),
  asset: asset(r.asset),
  status: str(r.status) as UsageEvent['status'],
  idempotencyKey: str(r.idempotency_key),
  balanceAfter: toBigInt(r.balance_after),
  metadata: json(r.metadata),
  createdAt: date(r.created_at),
});

export const toLedgerEntry = (r: Row): LedgerEntry => ({
  id: str(r.id),
  developerId: str(r.developer_id),
  customerId: str(r.customer_id),
  asset: asset(r.asset),
  type: str(r.type) as LedgerEntry['type'],
  direction: str(r.direction) as LedgerEntry['direction'],
  amount: toBigInt(r.amount),
  balanceAfter: toBigInt(r.balance_after),
  referenceType: str(r.reference_type) as LedgerEntry['referenceType'],
  referenceId: str(r.reference_id),
  createdAt: date(r.created_at),
});

export const toWebhookAttempt = (r: Row): WebhookAttempt => ({
  id: str(r.id),
  deliveryId: str(r.delivery_id),
  attemptedAt: date(r.attempted_at),
  url: str(r.url),
  statusCode: numOrNull(r.status_code),
  latencyMs: toNumber(r.latency_ms),
  error: strOrNull(r.error),
  responseExcerpt: strOrNull(r.response_excerpt),
});

export const toWebhookDelivery = (r: Row, attempts: WebhookAttempt[]): WebhookDelivery => ({
  id: str(r.id),
  developerId: str(r.developer_id),
  serviceId: str(r.service_id),
  eventType: str(r.event_type),
  eventId: str(r.event_id),
  payload: str(r.payload),
  status: str(r.status) as WebhookDelivery['status'],
  attemptCount: toNumber(r.attempt_count),
  lastStatusCode: numOrNull(r.last_status_code),
  lastError: strOrNull(r.last_error),
  nextAttemptAt: dateOrNull(r.next_attempt_at),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
  attempts,
});

export const toMeterEvent = (r: Row): MeterEvent => ({
  id: str(r.id),
  developerId: str(r.developer_id),
  type: str(r.type) as WebhookEventType,
  subjectId: str(r.subject_id),
  payload: str(r.payload),
  createdAt: date(r.created_at),
});

/** Copies the patch fields that are present onto their columns, converted by `convert`. */
export function patchColumns<P extends object>(
  patch: P,
  columns: { [K in keyof P]-?: string },
  convert: Partial<{ [K in keyof P]: (value: Exclude<P[K], undefined>) => unknown }> = {},
): Row {
  const out: Row = {};
  for (const key of Object.keys(columns) as (keyof P)[]) {
    const value = patch[key];
    if (value === undefined) continue;
    const fn = convert[key];
    out[columns[key]] = fn ? fn(value as Exclude<P[keyof P], undefined>) : value;
  }
  return out;
}
