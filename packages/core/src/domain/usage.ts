import { createHash } from 'node:crypto';
import { type AssetCode, formatAmount } from './money.js';
import type { UsageEvent } from './types.js';

/**
 * What an idempotency key is bound to. A reuse of the key with a different service,
 * customer, metric or quantity is a conflict; metadata does not take part.
 */
export function usageFingerprint(input: {
  serviceId: string;
  customerId: string;
  metricKey: string;
  quantity: number;
}): string {
  return createHash('sha256')
    .update(JSON.stringify([input.serviceId, input.customerId, input.metricKey, input.quantity]))
    .digest('hex');
}

export interface ChargedResult {
  status: 'charged';
  usageEventId: string;
  customer: string;
  service: string;
  metricKey: string;
  quantity: number;
  amount: string;
  asset: AssetCode;
  balanceRemaining: string;
  /** Present (true) when this answers a replay of an already charged idempotency key. */
  idempotent?: true;
}

export interface InsufficientBalanceResult {
  status: 'insufficient_balance';
  usageEventId: string;
  required: string;
  available: string;
  asset: AssetCode;
  paymentRequired: true;
}

export type UsageResult = ChargedResult | InsufficientBalanceResult;

/** The response body SPEC.md gives for a usage event. */
export function usageResult(event: UsageEvent, replay = false): UsageResult {
  if (event.status === 'charged') {
    const result: ChargedResult = {
      status: 'charged',
      usageEventId: event.id,
      customer: event.customerExternalId,
      service: event.serviceSlug,
      metricKey: event.metricKey,
      quantity: event.quantity,
      amount: formatAmount(event.amount, event.asset),
      asset: event.asset,
      balanceRemaining: formatAmount(event.balanceAfter, event.asset),
    };
    if (replay) result.idempotent = true;
    return result;
  }
  return {
    status: 'insufficient_balance',
    usageEventId: event.id,
    required: formatAmount(event.amount, event.asset),
    available: formatAmount(event.balanceAfter, event.asset),
    asset: event.asset,
    paymentRequired: true,
  };
}
