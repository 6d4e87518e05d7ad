import { formatAmount } from '../domain/money.js';
import type {
  ApiKey,
  Balance,
  Customer,
  Developer,
  LedgerEntry,
  MeterEvent,
  MeteredService,
  PaymentRequest,
  PricingRule,
  UsageEvent,
  WebhookDelivery,
} from '../domain/types.js';
import type { DashboardSummary } from '../ports/meter-store.js';

/** Domain records -> the JSON shapes of API.md. Money becomes decimal strings, dates ISO strings. */

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export const serializeDeveloper = (d: Developer) => ({
  id: d.id,
  email: d.email,
  name: d.name,
  createdAt: iso(d.createdAt),
});

export const serializeApiKey = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  keyPrefix: k.keyPrefix,
  createdAt: iso(k.createdAt),
  lastUsedAt: iso(k.lastUsedAt),
  revokedAt: iso(k.revokedAt),
});

export const serializeService = (s: MeteredService) => ({
  id: s.id,
  name: s.name,
  slug: s.slug,
  description: s.description,
  webhookUrl: s.webhookUrl,
  webhookSecret: s.webhookSecret,
  webhookEvents: s.webhookEvents,
  defaultAsset: s.defaultAsset,
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});

export const serializePricingRule = (r: PricingRule) => ({
  id: r.id,
  serviceId: r.serviceId,
  name: r.name,
  metricKey: r.metricKey,
  unitName: r.unitName,
  pricingModel: r.pricingModel,
  price: r.price,
  asset: r.asset,
  active: r.active,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export const serializeCustomer = (c: Customer) => ({
  id: c.id,
  externalId: c.externalId,
  name: c.name,
  email: c.email,
  metadata: c.metadata,
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
});

export const serializeBalance = (b: Balance) => ({
  customerId: b.customerId,
  asset: b.asset,
  availableBalance: formatAmount(b.available, b.asset),
  totalFunded: formatAmount(b.totalFunded, b.asset),
  totalSpent: formatAmount(b.totalSpent, b.asset),
  updatedAt: iso(b.updatedAt),
});

export const serializePaymentRequest = (p: PaymentRequest) => ({
  id: p.id,
  customerId: p.customerId,
  amount: formatAmount(p.amount, p.asset),
  asset: p.asset,
  status: p.status,
  provider: p.provider,
  paymentUri: p.paymentUri,
  paymentHash: p.paymentHash,
  expiresAt: iso(p.expiresAt),
  paidAt: iso(p.paidAt),
  metadata: p.metadata,
  createdAt: iso(p.createdAt),
});

export const serializeUsageEvent = (e: UsageEvent) => ({
  id: e.id,
  usageEventId: e.id,
  status: e.status,
  service: e.serviceSlug,
  serviceId: e.serviceId,
  customer: e.customerExternalId,
  customerId: e.customerId,
  metricKey: e.metricKey,
  quantity: e.quantity,
  amount: formatAmount(e.amount, e.asset),
  asset: e.asset,
  balanceAfter: formatAmount(e.balanceAfter, e.asset),
  idempotencyKey: e.idempotencyKey,
  pricingRuleId: e.pricingRuleId,
  metadata: e.metadata,
  createdAt: iso(e.createdAt),
});

export const serializeLedgerEntry = (l: LedgerEntry) => ({
  id: l.id,
  customerId: l.customerId,
  asset: l.asset,
  type: l.type,
  direction: l.direction,
  amount: formatAmount(l.amount, l.asset),
  balanceAfter: formatAmount(l.balanceAfter, l.asset),
  referenceType: l.referenceType,
  referenceId: l.referenceId,
  createdAt: iso(l.createdAt),
});

export const serializeWebhookDelivery = (d: WebhookDelivery) => ({
  id: d.id,
  serviceId: d.serviceId,
  eventType: d.eventType,
  eventId: d.eventId,
  status: d.status,
  attemptCount: d.attemptCount,
  lastStatusCode: d.lastStatusCode,
  lastError: d.lastError,
  nextAttemptAt: iso(d.nextAttemptAt),
  payload: d.payload,
  createdAt: iso(d.createdAt),
  updatedAt: iso(d.updatedAt),
  attempts: d.attempts.map((a) => ({
    id: a.id,
    attemptedAt: iso(a.attemptedAt),
    url: a.url,
    statusCode: a.statusCode,
    latencyMs: a.latencyMs,
    error: a.error,
    responseExcerpt: a.responseExcerpt,
  })),
});

export const serializeEvent = (e: MeterEvent) => ({
  id: e.id,
  type: e.type,
  subjectId: e.subjectId,
  payload: JSON.parse(e.payload) as unknown,
  createdAt: iso(e.createdAt),
});

export const serializeSummary = (s: DashboardSummary) => ({
  customers: s.customers,
  services: s.services,
  balances: s.balances.map((b) => ({
    asset: b.asset,
    availableBalance: formatAmount(b.available, b.asset),
    totalFunded: formatAmount(b.totalFunded, b.asset),
    totalSpent: formatAmount(b.totalSpent, b.asset),
  })),
  usage: s.usage,
  paymentRequests: s.paymentRequests,
  webhookDeliveries: s.webhookDeliveries,
});
