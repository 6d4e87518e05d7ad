export { createMeterClient, type MeterClient, type MeterClientOptions } from './client.js';
export type { LedgerListParams } from './customers.js';
export * from './errors.js';
export type { PaymentRequestListParams } from './payments.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export type * from './types.js';
export {
  newIdempotencyKey,
  type RecordUsageOptions,
  type RecordUsageParams,
  type RecordUsageResult,
  type UsageListParams,
} from './usage.js';
export type { EventListParams, WebhookDeliveryListParams } from './webhooks.js';
