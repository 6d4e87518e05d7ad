export type { SimulatedChannelHealth } from './channel.js';
export * from './credentials.js';
export type * from './events.js';
export { createMeter, type Meter, type MeterOptions, ulidIds } from './meter.js';
export type { PaymentConfirmation } from './payments.js';
export * from './schemas.js';
export type { WebhookDispatcher, WebhookOptions } from './webhook-dispatcher.js';
