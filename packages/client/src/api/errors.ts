/**
 * The two ways a call fails (SPEC.md, Errors). An API that answered with a non-2xx status is
 * a MeterApiError, with that status and the parsed body. Anything that kept an answer from
 * arriving or being read (a refused connection, a reset, a timeout, an unreadable body) is a
 * MeterNetworkError, which has no status: the API may or may not have done the work.
 * `insufficient_balance` is neither: it is a normal result of `usage.record`.
 */

/** The error body every non-2xx answer of the API carries (docs/api.md, Errors). */
export interface MeterErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

export class MeterApiError extends Error {
  override name = 'MeterApiError';
  /** The HTTP status the API answered with. */
  readonly status: number;
  /** The response body, parsed as JSON when it is JSON (usually a MeterErrorBody), else the text. */
  readonly body: unknown;
  /** `error.code` of the body (e.g. `not_found`, `idempotency_conflict`), when the body has one. */
  readonly code: string | undefined;
  /** `error.details` of the body, when present (e.g. validation issues, `retryAfter`). */
  readonly details: Record<string, unknown> | undefined;
  /** For `usage.record`: the idempotency key the call used, to retry the same operation later. */
  idempotencyKey?: string;

  constructor(status: number, body: unknown, request: { method: string; path: string }) {
    const error = errorOf(body);
    super(`${request.method} ${request.path} answered ${status}: ${error?.message ?? describeBody(body)}`);
    this.status = status;
    this.body = body;
    this.code = error?.code;
    this.details = error?.details;
  }
}

export class MeterNetworkError extends Error {
  override name = 'MeterNetworkError';
  /** True when the call ran out of time (see MeterTimeoutError). */
  readonly timeout: boolean = false;
  /** True when the caller's AbortSignal stopped the call; such calls are never retried. */
  readonly aborted: boolean;
  /** For `usage.record`: the idempotency key the call used, to retry the same operation later. */
  idempotencyKey?: string;

  constructor(message: string, options: { cause?: unknown; aborted?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.aborted = options.aborted ?? false;
  }
}

/** No complete answer within the client's `timeoutMs`. */
export class MeterTimeoutError extends MeterNetworkError {
  override name = 'MeterTimeoutError';
  override readonly timeout = true;
  readonly timeoutMs: number;

  constructor(message: string, timeoutMs: number, cause?: unknown) {
    super(message, { cause });
    this.timeoutMs = timeoutMs;
  }
}

function errorOf(body: unknown): MeterErrorBody['error'] | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, details } = error as Record<string, unknown>;
  return {
    code: typeof code === 'string' ? code : 'unknown',
    message: typeof message === 'string' ? message : 'no message',
    ...(typeof details === 'object' && details !== null
      ? { details: details as Record<string, unknown> }
      : {}),
  };
}

function describeBody(body: unknown): string {
  if (body === undefined || body === '') return 'no body';
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
