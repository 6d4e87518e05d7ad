import type { WebhookDelivery, WebhookDeliveryStatus } from '../domain/types.js';
import { signWebhook, WEBHOOK_HEADERS } from '../domain/webhook-signature.js';
import type { MeterStore } from '../ports/meter-store.js';
import type { Clock, IdGenerator, Logger } from '../ports/runtime.js';

export interface WebhookOptions {
  /** The fetch used for deliveries; defaults to the global one. */
  fetch?: typeof fetch;
  /** Per-attempt timeout; default 10 s. */
  timeoutMs?: number;
}

const EXCERPT_CHARS = 500;

export interface WebhookDispatcher {
  /** Sends a delivery written by a committed charge, in the background: the caller never waits. */
  dispatch(developerId: string, deliveryId: string): void;
  /** Makes one attempt now, with the service's current URL and secret, and returns the delivery. */
  attempt(developerId: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /** Resolves when every background delivery started so far has finished. */
  idle(): Promise<void>;
}

export function createWebhookDispatcher(deps: {
  store: MeterStore;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  options?: WebhookOptions | undefined;
}): WebhookDispatcher {
  const { store, clock, ids, logger } = deps;
  const doFetch = deps.options?.fetch ?? globalThis.fetch;
  const timeoutMs = deps.options?.timeoutMs ?? 10_000;
  const inFlight = new Set<Promise<unknown>>();

  async function send(delivery: WebhookDelivery): Promise<void> {
    const service = await store.getService(delivery.developerId, delivery.serviceId);
    const url = service?.webhookUrl ?? null;
    const attemptedAt = clock.now();
    const base = { id: ids.newId('wha'), attemptedAt, url: url ?? '' };
    if (!service || !url) {
      const error = service ? 'the service has no webhook URL' : 'the service no longer exists';
      await record(
        delivery.id,
        { ...base, statusCode: null, latencyMs: 0, error, responseExcerpt: null },
        'failed',
      );
      return;
    }
    const timestamp = String(attemptedAt.getTime());
    const started = performance.now();
    try {
      const response = await doFetch(url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'meter-webhooks/1',
          [WEBHOOK_HEADERS.event]: delivery.eventType,
          [WEBHOOK_HEADERS.timestamp]: timestamp,
          [WEBHOOK_HEADERS.signature]: signWebhook(service.webhookSecret, timestamp, delivery.payload),
          [WEBHOOK_HEADERS.delivery]: delivery.id,
        },
        body: delivery.payload,
      });
      const excerpt = (await response.text().catch(() => '')).slice(0, EXCERPT_CHARS);
      const ok = response.status >= 200 && response.status < 300;
      await record(
        delivery.id,
        {
          ...base,
          statusCode: response.status,
          latencyMs: Math.round(performance.now() - started),
          error: ok ? null : `receiver answered ${response.status}`,
          responseExcerpt: excerpt || null,
        },
        ok ? 'sent' : 'failed',
      );
    } catch (err) {
      const error =
        err instanceof Error && err.name === 'TimeoutError'
          ? `timed out after ${timeoutMs} ms`
          : err instanceof Error
            ? `${err.message}${err.cause instanceof Error ? `: ${err.cause.message}` : ''}`
            : String(err);
      await record(
        delivery.id,
        {
          ...base,
          statusCode: null,
          latencyMs: Math.round(performance.now() - started),
          error,
          responseExcerpt: null,
        },
        'failed',
      );
    }
  }

  function record(
    deliveryId: string,
    attempt: Parameters<MeterStore['recordWebhookAttempt']>[1],
    status: WebhookDeliveryStatus,
  ): Promise<void> {
    return store.recordWebhookAttempt(deliveryId, attempt, status);
  }

  async function attempt(developerId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const delivery = await store.getWebhookDelivery(developerId, deliveryId);
    if (!delivery) return null;
    await send(delivery);
    return store.getWebhookDelivery(developerId, deliveryId);
  }

  return {
    dispatch(developerId, deliveryId) {
      const task = attempt(developerId, deliveryId).catch((err: unknown) =>
        logger.error('webhook delivery failed to run', { deliveryId, error: String(err) }),
      );
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
    },
    attempt,
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
