// Server-side only: webhook secrets (and, later, API keys) must never reach a browser bundle.
export * from './webhooks/index.js';
