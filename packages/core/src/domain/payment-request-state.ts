import type { PaymentRequest, PaymentStatus } from './types.js';

/**
 * Payment-request states: pending -> paid (credited once), pending -> expired (when
 * expiresAt passes), pending -> cancelled. paid, expired and cancelled are final.
 * An unpaid request past expiresAt reads as expired even before a write records it.
 */
export function effectiveStatus(
  request: Pick<PaymentRequest, 'status' | 'expiresAt'>,
  now: Date,
): PaymentStatus {
  if (request.status === 'pending' && request.expiresAt.getTime() <= now.getTime()) return 'expired';
  return request.status;
}

export type CreditDecision = 'credit' | 'already_paid' | 'expired' | 'cancelled';

/** Whether a confirmation of payment may credit this request now. */
export function creditDecision(
  request: Pick<PaymentRequest, 'status' | 'expiresAt'>,
  now: Date,
): CreditDecision {
  const status = effectiveStatus(request, now);
  if (status === 'pending') return 'credit';
  if (status === 'paid') return 'already_paid';
  return status;
}
