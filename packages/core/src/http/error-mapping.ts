import { type ErrorCode, type MeterError, toMeterError } from '../domain/errors.js';
import type { Logger } from '../ports/runtime.js';
import type { MeterResponse } from './types.js';

/** The one place where error codes become HTTP statuses. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  validation_error: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_conflict: 409,
  expired: 410,
  payload_too_large: 413,
  rate_limited: 429,
  provider_error: 502,
  provider_unavailable: 503,
  store_unavailable: 503,
  provider_timeout: 504,
  internal_error: 500,
};

export function errorBody(err: MeterError): {
  error: { code: string; message: string; details?: Record<string, unknown> };
} {
  return {
    error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
  };
}

/** Maps anything thrown to the error response; unexpected errors are masked and logged in full. */
export function errorResponse(
  thrown: unknown,
  logger: Logger,
  headers: Record<string, string> = {},
): MeterResponse {
  const err = toMeterError(thrown);
  if (err.code === 'internal_error') {
    const cause = err.cause ?? thrown;
    logger.error('unexpected error', {
      error: cause instanceof Error ? (cause.stack ?? cause.message) : String(cause),
    });
  }
  return {
    status: HTTP_STATUS[err.code],
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(errorBody(err)),
  };
}
