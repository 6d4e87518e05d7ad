// Server-side only: API keys, dashboard tokens and webhook secrets must never reach a browser
// bundle, so nothing here reads browser globals or is meant to be bundled for one.
export * from './api/index.js';
export * from './webhooks/index.js';
