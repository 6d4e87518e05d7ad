export * from './errors.js';
export * from './ids.js';
export * from './money.js';
export * from './payment-request-state.js';
export * from './pricing.js';
export type * from './types.js';
export * from './usage.js';
export * from './webhook-signature.js';
