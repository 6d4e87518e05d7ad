import { MeterApiError, type MeterClient, MeterNetworkError, newIdempotencyKey } from '@meter/client';

export interface CountRequest {
  customer: string;
  text: string;
  /** From the caller's Idempotency-Key header: the same key for a retry of the same request. */
  idempotencyKey: string | undefined;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface MeteringTarget {
  client: MeterClient;
  serviceSlug: string;
  metricKey: string;
  /** Called once when the API refuses the credentials (an expired JWT); true to try again. */
  reauthenticate?: () => Promise<boolean>;
  /** Where failures are written; default console.log. */
  log?: (line: string) => void;
}

const MAX_TEXT = 100_000;

/** The metered work itself. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * POST /count: the word count is computed, charged for the calling customer, and only then
 * returned. Whatever keeps the charge from being confirmed (a refused balance, an API error,
 * an unreachable API) answers without the result.
 */
export async function handleCount(input: unknown, target: MeteringTarget, key?: string): Promise<Answer> {
  const { customer, text } = (input ?? {}) as Record<string, unknown>;
  if (typeof customer !== 'string' || customer.trim() === '' || typeof text !== 'string') {
    return invalid('Send JSON {"customer": "<externalId>", "text": "<words to count>"}');
  }
  if (text.length > MAX_TEXT) return invalid(`text is longer than ${MAX_TEXT} characters`);
  const words = countWords(text);
  if (words === 0) return invalid('text has no words: there is nothing to count or charge');

  const idempotencyKey = key ?? newIdempotencyKey();
  const usage = {
    service: target.serviceSlug,
    customer,
    metricKey: target.metricKey,
    quantity: words,
    idempotencyKey,
    metadata: { characters: text.length },
  };
  let result: Awaited<ReturnType<MeterClient['usage']['record']>>;
  try {
    result = await target.client.usage.record(usage).catch(async (err: unknown) => {
      const refused = err instanceof MeterApiError && err.status === 401;
      if (refused && (await target.reauthenticate?.())) return target.client.usage.record(usage);
      throw err;
    });
  } catch (err) {
    (target.log ?? console.log)(`metering failed for request ${idempotencyKey}: ${(err as Error).message}`);
    return meteringFailed(err, idempotencyKey);
  }

  if (result.status === 'insufficient_balance') {
    return {
      status: 402,
      body: {
        error: 'insufficient_balance',
        required: result.required,
        available: result.available,
        asset: result.asset,
        hint:
          `Fund the balance: create a payment request for customer "${customer}" ` +
          '(POST /api/payment-requests) and pay it, then send this request again. ' +
          'With the same Idempotency-Key header it is charged at most once.',
        usageEventId: result.usageEventId,
        idempotencyKey,
      },
    };
  }
  return {
    status: 200,
    body: {
      words,
      charged: {
        amount: result.amount,
        asset: result.asset,
        balanceRemaining: result.balanceRemaining,
        usageEventId: result.usageEventId,
        // A retried request whose charge had already been made: served again, not charged again.
        replay: result.idempotent === true,
      },
      idempotencyKey,
    },
  };
}

function invalid(message: string): Answer {
  return { status: 400, body: { error: 'invalid_request', message } };
}

/** No confirmed charge, so no result. The key lets the caller retry the same request safely. */
function meteringFailed(err: unknown, idempotencyKey: string): Answer {
  if (err instanceof MeterApiError && (err.status === 400 || err.status === 404 || err.status === 409)) {
    return {
      status: err.status,
      body: { error: err.code ?? 'metering_refused', message: errorMessage(err), idempotencyKey },
    };
  }
  const unreachable = err instanceof MeterNetworkError;
  return {
    status: 503,
    body: {
      error: 'metering_unavailable',
      message: unreachable
        ? 'The metering API cannot be reached; nothing is served until the usage is charged. Try again.'
        : `The metering API answered ${(err as MeterApiError).status ?? 'with an error'}; nothing is served until the usage is charged. Try again.`,
      idempotencyKey,
    },
  };
}

function errorMessage(err: MeterApiError): string {
  const body = err.body as { error?: { message?: string } } | undefined;
  return body?.error?.message ?? err.message;
}
