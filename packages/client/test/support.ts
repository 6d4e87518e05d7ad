import { createHmac } from 'node:crypto';

export const SECRET = 'whsec_test_secret_0123456789';
export const NOW = 1_795_251_563_615;

/** The signature computed here, independently of @meter/core's signWebhook. */
export function hmacHex(secret: string, timestamp: number | string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function usageCharged(overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    id: 'use_01JD0000000000000000000001',
    type: 'usage.charged',
    createdAt: '2026-11-21T08:59:23.613Z',
    usageEventId: 'use_01JD0000000000000000000001',
    customer: 'acme',
    service: 'word-counter',
    metricKey: 'words',
    quantity: 2.5,
    amount: '0.025',
    asset: 'CKB',
    ...overrides,
  });
}

/** Headers of a delivery as Meter sends them. */
export function signedHeaders(
  body: string | Uint8Array,
  options: { secret?: string; timestamp?: number; deliveryId?: string; eventType?: string } = {},
): Record<string, string> {
  const timestamp = options.timestamp ?? NOW;
  return {
    'content-type': 'application/json',
    'x-meter-event': options.eventType ?? 'usage.charged',
    'x-meter-timestamp': String(timestamp),
    'x-meter-signature': hmacHex(options.secret ?? SECRET, timestamp, body),
    'x-meter-delivery': options.deliveryId ?? 'whd_01JD0000000000000000000001',
  };
}
