import { createHmac, timingSafeEqual } from 'node:crypto';

/** Receivers reject deliveries whose timestamp is further than this from their clock. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

export const WEBHOOK_HEADERS = {
  event: 'X-Meter-Event',
  timestamp: 'X-Meter-Timestamp',
  signature: 'X-Meter-Signature',
  delivery: 'X-Meter-Delivery',
} as const;

/** Lowercase hex HMAC-SHA256, keyed with the secret, of `timestamp + "." + rawBody`. */
export function signWebhook(
  secret: string,
  timestampMs: number | string,
  rawBody: string | Uint8Array,
): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestampMs}.`);
  hmac.update(rawBody);
  return hmac.digest('hex');
}

export type WebhookVerification =
  | { ok: true }
  | {
      ok: false;
      reason:
        | 'missing_timestamp'
        | 'invalid_timestamp'
        | 'timestamp_out_of_tolerance'
        | 'missing_signature'
        | 'invalid_signature';
    };

export interface VerifyWebhookInput {
  rawBody: string | Uint8Array;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
  secret: string;
  now?: number;
  toleranceMs?: number;
}

/**
 * Checks a delivery as SPEC.md's receiver rules say: over the raw bytes, a finite
 * timestamp within the tolerance, and a constant-time signature comparison.
 */
export function verifyWebhookSignature(input: VerifyWebhookInput): WebhookVerification {
  const { rawBody, timestamp, signature, secret } = input;
  if (timestamp == null || timestamp === '') return { ok: false, reason: 'missing_timestamp' };
  if (!/^\d{1,16}$/.test(timestamp)) return { ok: false, reason: 'invalid_timestamp' };
  const ts = Number(timestamp);
  if (!Number.isFinite(ts)) return { ok: false, reason: 'invalid_timestamp' };
  const now = input.now ?? Date.now();
  if (Math.abs(now - ts) > (input.toleranceMs ?? WEBHOOK_TOLERANCE_MS)) {
    return { ok: false, reason: 'timestamp_out_of_tolerance' };
  }
  if (!signature) return { ok: false, reason: 'missing_signature' };
  const expected = Buffer.from(signWebhook(secret, timestamp, rawBody), 'hex');
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'invalid_signature' };
  }
  return { ok: true };
}
