export * from './config.js';
export * from './domain/index.js';
export * from './http/index.js';
export * from './ports/index.js';
export * from './service/index.js';
