import type { Clock } from '../ports/runtime.js';

/**
 * Test support for libraries and apps built on @meter/core: the conformance suites (which
 * need vitest, an optional peer dependency) and small fakes. Nothing in the main entry
 * imports this file.
 */

export {
  type HostOptions,
  type HttpAdapterConformanceOptions,
  type ListeningHost,
  listenOn,
  runHttpAdapterConformance,
} from './http-conformance/index.js';
export {
  type ProviderConformanceOptions,
  type ProviderOutage,
  type ProviderUnderTest,
  runProviderConformance,
} from './provider-conformance.js';
export {
  type RawBalance,
  type RawLedgerEntry,
  type RawUsageEvent,
  type RawWebhookDelivery,
  runStoreConformance,
  type StoreConformanceOptions,
  type StoreRawReader,
  type StoreUnderTest,
} from './store-conformance/index.js';

/** A clock that moves only when told to. */
export function fakeClock(
  start: Date | number = Date.now(),
): Clock & { advance(ms: number): void; set(at: Date | number): void } {
  let now = typeof start === 'number' ? start : start.getTime();
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
    set(at) {
      now = typeof at === 'number' ? at : at.getTime();
    },
  };
}
