export * from './event-store.js';
export type * from './events.js';
export * from './file-event-store.js';
export type * from './headers.js';
export * from './receiver.js';
export * from './verify-webhook.js';
