/**
 * One error class for everything the library raises on purpose. Codes are strings from
 * ERROR_CODES; the HTTP status for each code is decided in one place (http/error-mapping.ts).
 */
export const ERROR_CODES = [
  'validation_error',
  'unauthorized',
  'invalid_credentials',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'idempotency_conflict',
  'expired',
  'payload_too_large',
  'rate_limited',
  'provider_error',
  'provider_unavailable',
  'provider_timeout',
  'store_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class MeterError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MeterError';
    this.code = code;
    this.details = details;
  }
}

export function isMeterError(err: unknown): err is MeterError {
  return err instanceof MeterError;
}

/** Normalises anything thrown into a MeterError; unknown failures become `internal_error`. */
export function toMeterError(err: unknown): MeterError {
  if (err instanceof MeterError) return err;
  return new MeterError('internal_error', 'Internal error', undefined, { cause: err });
}

export const notFound = (what: string): MeterError => new MeterError('not_found', `${what} not found`);

export const invalid = (message: string, details?: Record<string, unknown>): MeterError =>
  new MeterError('validation_error', message, details);
