export type * from './channel-provider.js';
export type * from './meter-store.js';
export * from './runtime.js';
