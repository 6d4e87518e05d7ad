import { verifyWebhookSignature, WEBHOOK_HEADERS, WEBHOOK_TOLERANCE_MS } from '@meter/core';
import type { MeterWebhookEvent } from './events.js';
import { readHeader, type WebhookHeaders } from './headers.js';

/** The request body exactly as received: bytes, or the bytes decoded as UTF-8. */
export type RawBody = string | Uint8Array | ArrayBuffer;

export interface VerifyWebhookOptions {
  rawBody: RawBody;
  headers: WebhookHeaders;
  /** The service's webhook secret; several during a rotation (any one may match). */
  secret: string | readonly string[];
  /** Largest accepted distance between X-Meter-Timestamp and `now`; default 5 minutes. */
  toleranceMs?: number;
  /** The receiver's clock in ms (or a Date); default Date.now(). */
  now?: number | Date;
}

/** Failures that mean the request is not an authentic, fresh delivery: answer 401. */
export type WebhookAuthFailure =
  | 'missing_timestamp'
  | 'invalid_timestamp'
  | 'timestamp_out_of_tolerance'
  | 'missing_signature'
  | 'invalid_signature'
  | 'event_type_mismatch'
  | 'delivery_id_mismatch';

/** Failures of an authentic request that cannot be processed: answer 400. */
export type WebhookRequestFailure = 'missing_delivery_id' | 'invalid_body';

export type WebhookFailureReason = WebhookAuthFailure | WebhookRequestFailure;

export type VerifyWebhookResult =
  | {
      ok: true;
      /** The parsed body. */
      event: MeterWebhookEvent;
      /**
       * The delivery id: the same on every attempt of a delivery; de-duplicate on it. Taken from
       * the signed body (`deliveryId`), so a replayed request cannot pose as a new delivery.
       */
      deliveryId: string;
      /** The body's `type` (signed), e.g. `usage.charged`. */
      eventType: string;
      /** X-Meter-Timestamp in ms: when this attempt was signed. */
      timestamp: number;
    }
  | { ok: false; reason: WebhookFailureReason; message: string };

const PARSE_HINT =
  'Read the webhook route body unparsed: express.raw({ type: "application/json" }) in Express, ' +
  'the request stream in Koa, payload: { parse: false, output: "data" } in Hapi, request.arrayBuffer() with fetch.';

/**
 * Checks a delivery by SPEC.md's receiver rules: the HMAC over the raw body bytes, compared in
 * constant time, and a whole-number timestamp within `toleranceMs` of `now`. Only then is the
 * body parsed. Programming errors (a parsed body, an empty secret) throw a TypeError instead
 * of returning a failure, so they are not mistaken for a bad delivery.
 */
export function verifyWebhook(options: VerifyWebhookOptions): VerifyWebhookResult {
  const rawBody = rawBytes(options.rawBody);
  const secrets = secretList(options.secret);
  const toleranceMs = options.toleranceMs ?? WEBHOOK_TOLERANCE_MS;
  if (!Number.isFinite(toleranceMs) || toleranceMs < 0) {
    throw new RangeError('verifyWebhook: toleranceMs must be a finite number of milliseconds, 0 or more');
  }
  const now = options.now === undefined ? Date.now() : Number(options.now);
  // NaN would compare as "within tolerance" and let any timestamp through.
  if (!Number.isFinite(now)) throw new RangeError('verifyWebhook: now must be a finite time in ms or a Date');
  const timestamp = readHeader(options.headers, WEBHOOK_HEADERS.timestamp);
  const signature = readHeader(options.headers, WEBHOOK_HEADERS.signature);

  let check = verifyWebhookSignature({
    rawBody,
    timestamp,
    signature,
    secret: secrets[0]!,
    now,
    toleranceMs,
  });
  for (const secret of secrets.slice(1)) {
    if (check.ok || check.reason !== 'invalid_signature') break;
    check = verifyWebhookSignature({ rawBody, timestamp, signature, secret, now, toleranceMs });
  }
  if (!check.ok) return fail(check.reason, authMessage(check.reason, Number(timestamp), now, toleranceMs));

  const event = parseEvent(rawBody);
  if (!event) return fail('invalid_body', 'The body is not a JSON object with a string "type".');
  const headerType = readHeader(options.headers, WEBHOOK_HEADERS.event);
  if (headerType !== undefined && headerType !== event.type) {
    // The header is not signed; the body's type is. A mismatch means someone edited the request.
    return fail(
      'event_type_mismatch',
      `X-Meter-Event says "${headerType}" but the signed body is a "${event.type}" event.`,
    );
  }
  const signedId = typeof event.deliveryId === 'string' ? event.deliveryId : undefined;
  const headerId = readHeader(options.headers, WEBHOOK_HEADERS.delivery);
  if (signedId && headerId !== undefined && headerId !== signedId) {
    return fail(
      'delivery_id_mismatch',
      `X-Meter-Delivery says "${headerId}" but the signed body belongs to delivery "${signedId}".`,
    );
  }
  const deliveryId = signedId ?? headerId;
  if (!deliveryId)
    return fail('missing_delivery_id', 'The delivery id is missing (body deliveryId and X-Meter-Delivery).');
  return { ok: true, event, deliveryId, eventType: event.type, timestamp: Number(timestamp) };
}

function fail(reason: WebhookFailureReason, message: string): VerifyWebhookResult {
  return { ok: false, reason, message };
}

function rawBytes(body: unknown): string | Uint8Array {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body === undefined || body === null) {
    throw new TypeError(`verifyWebhook: rawBody is ${body}: the request body was not read. ${PARSE_HINT}`);
  }
  throw new TypeError(
    `verifyWebhook: rawBody must be the raw request body (a Buffer, Uint8Array or string), not ${
      typeof body === 'object' ? 'a parsed object' : `a ${typeof body}`
    }. The signature covers the exact bytes sent, and re-serialising parsed JSON changes them. ${PARSE_HINT}`,
  );
}

function secretList(secret: string | readonly string[]): string[] {
  const list = typeof secret === 'string' ? [secret] : [...(secret ?? [])];
  if (list.length === 0 || list.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError(
      'verifyWebhook: the webhook secret is empty or missing (is its environment variable set?)',
    );
  }
  return list;
}

function authMessage(
  reason: WebhookAuthFailure,
  timestamp: number,
  now: number,
  toleranceMs: number,
): string {
  switch (reason) {
    case 'missing_timestamp':
      return 'The X-Meter-Timestamp header is missing.';
    case 'invalid_timestamp':
      return 'X-Meter-Timestamp is not a whole number of milliseconds.';
    case 'timestamp_out_of_tolerance':
      return (
        `X-Meter-Timestamp is ${Math.round(Math.abs(now - timestamp) / 1000)} s from this server's clock; ` +
        `at most ${Math.round(toleranceMs / 1000)} s is accepted. A replayed request, or a clock that is off.`
      );
    case 'missing_signature':
      return 'The X-Meter-Signature header is missing.';
    case 'invalid_signature':
      return (
        'The signature does not match. Check the webhook secret (during a rotation, pass both), and that ' +
        'the body given is the raw request body, unparsed and unchanged.'
      );
    default:
      return reason;
  }
}

function parseEvent(rawBody: string | Uint8Array): MeterWebhookEvent | null {
  try {
    const text =
      typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: true }).decode(rawBody);
    const value: unknown = JSON.parse(text);
    const isEvent =
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof (value as { type?: unknown }).type === 'string';
    return isEvent ? (value as MeterWebhookEvent) : null;
  } catch {
    return null;
  }
}
