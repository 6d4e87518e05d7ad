import { MeterApiError, MeterNetworkError } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt; default 3. 0 turns retrying off. */
  retries: number;
  /** The first wait; each retry doubles it (before jitter). Default 250 ms. */
  baseDelayMs: number;
  /** The longest wait between two attempts. Default 5000 ms. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 3, baseDelayMs: 250, maxDelayMs: 5000 };

export function retryOptions(base: RetryOptions, override?: Partial<RetryOptions> | false): RetryOptions {
  if (override === false) return { ...base, retries: 0 };
  const merged = { ...base, ...override };
  for (const [name, value] of Object.entries(merged)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`retry.${name} must be a finite number, 0 or more; got ${value}`);
    }
  }
  return merged;
}

/**
 * Whether a failed usage call may be sent again with the same idempotency key: when no answer
 * came (the charge may or may not have happened; the key makes a repeat safe) or the server
 * failed (5xx, e.g. 503 store_unavailable). A 4xx would fail the same way again.
 */
export function isRetryable(err: unknown): boolean {
  if (err instanceof MeterNetworkError) return !err.aborted;
  return err instanceof MeterApiError && err.status >= 500;
}

/** Exponential backoff with equal jitter: half the step is fixed, half random. */
export function backoffDelay(options: RetryOptions, retry: number, random = Math.random): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.round(step / 2 + random() * (step / 2));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(signal: AbortSignal): MeterNetworkError {
  return new MeterNetworkError('The call was aborted by the caller while waiting to retry', {
    cause: signal.reason,
    aborted: true,
  });
}
