import { randomUUID } from 'node:crypto';
import { MeterError } from '../domain/errors.js';
import type { WebhookDelivery } from '../domain/types.js';
import { DEFAULT_RETRY_SCHEDULE_MS, nextAttemptAt } from '../domain/webhook-schedule.js';
import { signWebhook, WEBHOOK_HEADERS } from '../domain/webhook-signature.js';
import type { AttemptOutcome, MeterStore, NewWebhookAttempt } from '../ports/meter-store.js';
import type { Clock, IdGenerator, Logger } from '../ports/runtime.js';
import { nodeWebhookTransport, type WebhookTransport } from './webhook-transport.js';

export interface WebhookOptions {
  /** Per-attempt timeout; default 10 s. */
  timeoutMs?: number;
  /** Waits between attempts; default DEFAULT_RETRY_SCHEDULE_MS (at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  schedule?: readonly number[];
  /** How long a claim holds before another dispatcher may take the delivery; default timeout + 60 s. */
  leaseMs?: number;
  /** How often the background dispatcher looks for due deliveries; default 1000 ms. */
  pollIntervalMs?: number;
  /** Deliveries claimed per poll; default 20. */
  batchSize?: number;
  /** Send a new delivery right after its charge commits, in this process; default true. */
  dispatchAfterCommit?: boolean;
  /** Allow webhook URLs on loopback and private networks (demos, tests); default false. */
  allowPrivateNetworks?: boolean;
  /** The HTTP client; default node:http(s) with the private-address guard. */
  transport?: WebhookTransport;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
}

export interface WebhookDispatcher {
  /** Sends a delivery written by a committed transaction, in the background (no-op if dispatchAfterCommit is off). */
  dispatch(deliveryId: string): void;
  /** Makes one attempt now with the service's current URL and secret (a manual retry) and returns the delivery. */
  retry(developerId: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /** Claims and attempts the deliveries that are due now; returns how many were attempted. */
  runDue(): Promise<number>;
  /** Starts polling for due deliveries (retries, and deliveries another process never sent). */
  start(): void;
  /** Stops polling and waits for attempts under way. */
  stop(): Promise<void>;
  /** Resolves when every background attempt started so far has finished. */
  idle(): Promise<void>;
}

const EXCERPT_CHARS = 500;

export function createWebhookDispatcher(deps: {
  store: MeterStore;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  options?: WebhookOptions | undefined;
}): WebhookDispatcher {
  const { store, clock, ids, logger } = deps;
  const options = deps.options ?? {};
  const timeoutMs = options.timeoutMs ?? 10_000;
  const schedule = options.schedule ?? DEFAULT_RETRY_SCHEDULE_MS;
  const leaseMs = options.leaseMs ?? timeoutMs + 60_000;
  const transport = options.transport ?? nodeWebhookTransport;
  const inFlight = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;

  function track<T>(task: Promise<T>): Promise<T> {
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task)).catch(() => {});
    return task;
  }

  /** One attempt of a claimed delivery, recorded under the claim's lease. */
  async function attempt(delivery: WebhookDelivery, leaseToken: string, manual = false): Promise<void> {
    const service = await store.getService(delivery.developerId, delivery.serviceId);
    const attemptedAt = clock.now();
    const url = service?.webhookUrl ?? '';
    let result: Omit<NewWebhookAttempt, 'id' | 'attemptedAt' | 'url'>;
    if (!service || !url) {
      const error = service ? 'the service has no webhook URL' : 'the service no longer exists';
      result = { statusCode: null, latencyMs: 0, error, responseExcerpt: null };
    } else {
      const timestamp = String(attemptedAt.getTime());
      const started = performance.now();
      try {
        const response = await transport({
          url,
          timeoutMs,
          allowPrivateNetworks: options.allowPrivateNetworks ?? false,
          body: delivery.payload,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'meter-webhooks/1',
            [WEBHOOK_HEADERS.event]: delivery.eventType,
            [WEBHOOK_HEADERS.timestamp]: timestamp,
            [WEBHOOK_HEADERS.signature]: signWebhook(service.webhookSecret, timestamp, delivery.payload),
            [WEBHOOK_HEADERS.delivery]: delivery.id,
          },
        });
        const ok = response.status >= 200 && response.status < 300;
        result = {
          statusCode: response.status,
          latencyMs: Math.round(performance.now() - started),
          error: ok ? null : `receiver answered ${response.status}`,
          responseExcerpt: response.body.slice(0, EXCERPT_CHARS) || null,
        };
      } catch (err) {
        const error =
          err instanceof Error
            ? `${err.message}${err.cause instanceof Error ? `: ${err.cause.message}` : ''}`
            : String(err);
        result = {
          statusCode: null,
          latencyMs: Math.round(performance.now() - started),
          error,
          responseExcerpt: null,
        };
      }
    }
    const sent = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const next = sent
      ? null
      : nextAttemptAt(delivery.attemptCount + 1, attemptedAt, schedule, options.random);
    // A failed manual re-send of a finished delivery leaves it finished: it does not restart the schedule.
    const finished = manual && delivery.status !== 'pending';
    const outcome: AttemptOutcome = sent
      ? { status: 'sent', nextAttemptAt: null }
      : finished
        ? { status: delivery.status, nextAttemptAt: null }
        : next
          ? { status: 'pending', nextAttemptAt: next }
          : { status: 'failed', nextAttemptAt: null };
    const recorded = await store.recordWebhookAttempt(
      delivery.id,
      leaseToken,
      { id: ids.newId('wha'), attemptedAt, url, ...result },
      outcome,
    );
    if (!recorded)
      logger.warn('webhook attempt not recorded: the claim expired first', { deliveryId: delivery.id });
  }

  async function claimAndAttempt(
    claim: Omit<Parameters<MeterStore['claimWebhookDeliveries']>[0], 'now' | 'leaseMs' | 'leaseToken'>,
  ) {
    const leaseToken = randomUUID();
    const claimed = await store.claimWebhookDeliveries({ ...claim, now: clock.now(), leaseMs, leaseToken });
    await Promise.all(claimed.map((delivery) => attempt(delivery, leaseToken)));
    return claimed.length;
  }

  async function runDue(): Promise<number> {
    return claimAndAttempt({ limit: options.batchSize ?? 20 });
  }

  return {
    dispatch(deliveryId) {
      if (options.dispatchAfterCommit === false) return;
      track(claimAndAttempt({ ids: [deliveryId], limit: 1 })).catch((err: unknown) =>
        logger.error('webhook dispatch failed; the poller will retry it', { deliveryId, error: String(err) }),
      );
    },

    async retry(developerId, deliveryId) {
      const leaseToken = randomUUID();
      const [delivery] = await store.claimWebhookDeliveries({
        now: clock.now(),
        leaseMs,
        leaseToken,
        ids: [deliveryId],
        limit: 1,
        includeFinal: true,
        developerId,
      });
      if (!delivery) {
        if (!(await store.getWebhookDelivery(developerId, deliveryId))) return null;
        throw new MeterError('conflict', 'This delivery is being attempted right now; try again in a moment');
      }
      await track(attempt(delivery, leaseToken, true));
      return store.getWebhookDelivery(developerId, deliveryId);
    },

    runDue: () => track(runDue()),

    start() {
      if (timer) return;
      timer = setInterval(() => {
        if (polling) return;
        polling = true;
        track(runDue())
          .catch((err: unknown) => logger.error('webhook poll failed', { error: String(err) }))
          .finally(() => {
            polling = false;
          });
      }, options.pollIntervalMs ?? 1000);
      timer.unref();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },

    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
