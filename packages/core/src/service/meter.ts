import { notFound } from '../domain/errors.js';
import { ulidFactory } from '../domain/ids.js';
import type { AssetCode } from '../domain/money.js';
import type { LedgerEntry, MeterEvent, WebhookDelivery, WebhookDeliveryStatus } from '../domain/types.js';
import type { ChannelProvider } from '../ports/channel-provider.js';
import type {
  DashboardSummary,
  InvariantViolation,
  MeterStore,
  Page,
  PageQuery,
} from '../ports/meter-store.js';
import { type Clock, type IdGenerator, type Logger, silentLogger, systemClock } from '../ports/runtime.js';
import { accountOperations } from './accounts.js';
import { catalogOperations } from './catalog.js';
import { channelOperations } from './channel.js';
import type { ServiceContext } from './context.js';
import { customerOperations } from './customers.js';
import { createEmitter } from './events.js';
import { paymentOperations } from './payments.js';
import { usageOperations } from './usage.js';
import { createWebhookDispatcher, type WebhookOptions } from './webhook-dispatcher.js';

export interface MeterOptions {
  store: MeterStore;
  provider: ChannelProvider;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  webhooks?: WebhookOptions;
}

/** Default ids: a type prefix and a time-ordered ULID, e.g. `cus_01JD3X...`. */
export function ulidIds(): IdGenerator {
  const next = ulidFactory();
  return { newId: (prefix) => `${prefix}_${next()}` };
}

/**
 * The meter: every operation a user can do, for library consumers who call the core
 * directly and for the HTTP handler. Every operation is scoped to a developer id.
 */
export function createMeter(options: MeterOptions) {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? ulidIds();
  const logger = options.logger ?? silentLogger;
  const { store, provider } = options;
  const events = createEmitter((err) => logger.error('a meter event listener threw', { error: String(err) }));
  const webhooks = createWebhookDispatcher({ store, clock, ids, logger, options: options.webhooks });
  const ctx: ServiceContext = { store, provider, clock, ids, logger, events, webhooks };

  return {
    store,
    provider,
    clock,
    ...accountOperations(ctx),
    ...catalogOperations(ctx),
    ...channelOperations(ctx),
    ...customerOperations(ctx),
    ...paymentOperations(ctx),
    ...usageOperations(ctx),

    listLedgerEntries(
      developerId: string,
      filter: { customerId?: string | undefined; asset?: AssetCode | undefined },
      page: PageQuery,
    ): Promise<Page<LedgerEntry>> {
      return store.listLedgerEntries(developerId, filter, page);
    },

    listWebhookDeliveries(
      developerId: string,
      filter: { status?: WebhookDeliveryStatus | undefined },
      page: PageQuery,
    ): Promise<Page<WebhookDelivery>> {
      return store.listWebhookDeliveries(developerId, filter, page);
    },

    async getWebhookDelivery(developerId: string, id: string): Promise<WebhookDelivery> {
      const delivery = await store.getWebhookDelivery(developerId, id);
      if (!delivery) throw notFound('Webhook delivery');
      return delivery;
    },

    /** One new attempt now, with the service's current webhook URL and secret. */
    async retryWebhookDelivery(developerId: string, id: string): Promise<WebhookDelivery> {
      const delivery = await webhooks.retry(developerId, id);
      if (!delivery) throw notFound('Webhook delivery');
      return delivery;
    },

    /**
     * Replay: puts the service's failed deliveries created since `since` back in the queue for
     * one more attempt each (made by the dispatcher, with the current URL and secret).
     */
    async retryFailedDeliveries(
      developerId: string,
      serviceId: string,
      since: Date,
    ): Promise<{ requeued: number }> {
      const service = await store.getService(developerId, serviceId);
      if (!service) throw notFound('Service');
      const requeued = await store.requeueFailedDeliveries(developerId, service.id, since, clock.now());
      if (requeued > 0) void webhooks.runDue().catch(() => {});
      return { requeued };
    },

    /** Stored events (balance.funded), newest first. */
    listEvents(
      developerId: string,
      filter: { type?: string | undefined },
      page: PageQuery,
    ): Promise<Page<MeterEvent>> {
      return store.listEvents(developerId, filter, page);
    },

    dashboardSummary(developerId: string): Promise<DashboardSummary> {
      return store.dashboardSummary(developerId, clock.now());
    },

    /** Ledger sums = available = funded - spent, for every customer and asset; [] when all hold. */
    checkInvariants(developerId?: string): Promise<InvariantViolation[]> {
      return store.checkInvariants(developerId);
    },

    /** Subscribes to `usage.charged` or `balance.funded`; returns an unsubscribe function. */
    on: events.on,

    /**
     * The webhook dispatcher: `start()` polls for due deliveries (retries, and deliveries
     * whose first attempt never happened); `runDue()` does one pass; `stop()` stops polling.
     */
    webhooks: { start: webhooks.start, stop: webhooks.stop, runDue: webhooks.runDue },

    /** Resolves when background webhook deliveries have finished. */
    idle: () => webhooks.idle(),

    /** Stops the webhook dispatcher, waits for background work, then closes the store. */
    async close(): Promise<void> {
      await webhooks.stop();
      await store.close();
    },
  };
}

export type Meter = ReturnType<typeof createMeter>;
