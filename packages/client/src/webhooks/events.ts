/**
 * The JSON bodies Meter delivers, as the sender builds them (defined once, in @meter/core).
 * Amounts are decimal strings: keep them out of floating point. Receivers should ignore event
 * types they do not know, so new types can be added.
 */
export type { BalanceFundedEvent, MeterWebhookEvent, UsageChargedEvent } from '@meter/core';
