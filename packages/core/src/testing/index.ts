import type { Clock } from '../ports/runtime.js';

/**
 * Test support for libraries and apps built on @meter/core. The store, provider and HTTP
 * conformance suites are exported from here as they are added.
 */

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
