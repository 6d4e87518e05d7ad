import type { ChannelProvider } from '../ports/channel-provider.js';
import type { MeterStore } from '../ports/meter-store.js';
import type { Clock, IdGenerator, Logger } from '../ports/runtime.js';
import type { Emitter } from './events.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';

/** What every part of the service shares. */
export interface ServiceContext {
  store: MeterStore;
  provider: ChannelProvider;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  events: Emitter;
  webhooks: WebhookDispatcher;
}
