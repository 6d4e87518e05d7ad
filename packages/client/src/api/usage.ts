import type { RecordUsageInput, UsageStatus } from '@meter/core';
import { MeterApiError, MeterNetworkError } from './errors.js';
import type { Http } from './http.js';
import { backoffDelay, isRetryable, type RetryOptions, retryOptions, sleep } from './retry.js';
import type { PageParams, UsageEvent, UsageResult } from './types.js';

/** Usage to record; `idempotencyKey` may be left out, and one is generated for this operation. */
export type RecordUsageParams = Omit<RecordUsageInput, 'idempotencyKey'> & { idempotencyKey?: string };

/**
 * The API's answer (`charged`, or `insufficient_balance`: a normal result, not an error), plus
 * the idempotency key that was used (log it) and how many attempts the call took.
 */
export type RecordUsageResult = UsageResult & { idempotencyKey: string; attempts: number };

export interface RecordUsageOptions {
  /** Overrides the client's retry settings for this call; `false`: one attempt only. */
  retry?: Partial<RetryOptions> | false;
  /** Stops the call, and any wait before a retry. */
  signal?: AbortSignal;
}

export interface UsageListParams extends PageParams {
  status?: UsageStatus;
  /** A customer externalId. */
  customer?: string;
  /** A service slug. */
  service?: string;
}

/** A fresh key for a new operation. */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID();

export function usageResource(http: Http, retry: RetryOptions, random?: () => number) {
  return {
    /**
     * Records usage and charges it (POST /api/usage-events; API key or JWT). Network failures,
     * timeouts and 5xx answers are retried with backoff, always with the same idempotency key,
     * so the usage is charged at most once however often it is sent. A 4xx is not retried. When
     * every attempt fails, the error's `idempotencyKey` says which key to retry with later.
     */
    async record(params: RecordUsageParams, options: RecordUsageOptions = {}): Promise<RecordUsageResult> {
      const idempotencyKey = params.idempotencyKey ?? newIdempotencyKey();
      const policy = retryOptions(retry, options.retry);
      const body = { ...params, idempotencyKey };
      for (let attempt = 1; ; attempt++) {
        try {
          const result = await http.send<UsageResult>({
            method: 'POST',
            path: '/api/usage-events',
            auth: 'usage',
            body,
            signal: options.signal,
          });
          return { ...result, idempotencyKey, attempts: attempt };
        } catch (err) {
          if (err instanceof MeterApiError || err instanceof MeterNetworkError)
            err.idempotencyKey = idempotencyKey;
          if (attempt > policy.retries || !isRetryable(err)) throw err;
          await sleep(backoffDelay(policy, attempt - 1, random), options.signal).catch((abort: unknown) => {
            (abort as MeterNetworkError).idempotencyKey = idempotencyKey;
            throw abort;
          });
        }
      }
    },

    /** GET /api/usage-events (JWT): charged and refused usage, newest first. */
    list(params: UsageListParams = {}) {
      return http.list<UsageEvent>('/api/usage-events', { ...params });
    },
  };
}
