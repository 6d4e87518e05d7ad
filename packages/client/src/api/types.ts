import type {
  ChargedResult,
  PaymentConfirmation as CorePaymentConfirmation,
  InsufficientBalanceResult,
  RouteContext,
  serializeApiKey,
  serializeBalance,
  serializeCustomer,
  serializeDeveloper,
  serializeEvent,
  serializeHealth,
  serializeLedgerEntry,
  serializePaymentRequest,
  serializePreflight,
  serializePricingRule,
  serializeProof,
  serializeService,
  serializeSummary,
  serializeUsageEvent,
  serializeWebhookDelivery,
  TranslatedNodeError,
  UsageResult,
} from '@meter/core';

/**
 * The JSON bodies the API answers with, derived from the core's own serializers so that the
 * client and the server cannot drift apart. Money is a decimal string, timestamps ISO strings.
 */

export type Developer = ReturnType<typeof serializeDeveloper>;
export type ApiKey = ReturnType<typeof serializeApiKey>;
/** The create answer: the only time the key itself is shown. */
export type CreatedApiKey = ApiKey & { key: string };
export type Service = ReturnType<typeof serializeService>;
export type PricingRule = ReturnType<typeof serializePricingRule>;
export type Customer = ReturnType<typeof serializeCustomer>;
export type Balance = ReturnType<typeof serializeBalance>;
export type LedgerEntry = ReturnType<typeof serializeLedgerEntry>;
export type PaymentRequest = ReturnType<typeof serializePaymentRequest>;
export type UsageEvent = ReturnType<typeof serializeUsageEvent>;
export type WebhookDelivery = ReturnType<typeof serializeWebhookDelivery>;
/** An entry of GET /api/events (e.g. `balance.funded`). */
export type StoredEvent = ReturnType<typeof serializeEvent>;
export type DashboardSummary = ReturnType<typeof serializeSummary> & {
  recentUsage: UsageEvent[];
  recentPaymentRequests: PaymentRequest[];
};
export type ChannelConfig = RouteContext['settings']['channel'];
export type ChannelHealth = ReturnType<typeof serializeHealth>;
export type PreflightReport = ReturnType<typeof serializePreflight>;
export type LiveProof = ReturnType<typeof serializeProof>;
export type { ChargedResult, InsufficientBalanceResult, TranslatedNodeError, UsageResult };

/** The answer of register and login. */
export interface AuthSession {
  developer: Developer;
  token: string;
  /** When the token expires (ISO 8601). */
  expiresAt: string;
}

/** The answer of simulate-paid and verify. */
export interface PaymentConfirmation {
  paymentRequest: PaymentRequest;
  verification: CorePaymentConfirmation['verification'];
}

/** Paging parameters of every paginated list. */
export interface PageParams {
  /** 1-1000, default 100. */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string | null;
}
