/** Wall-clock time; tests pass a fake one. */
export interface Clock {
  now(): Date;
}

/** Makes unique ids. MUST return ids that sort by creation time within one kind. */
export interface IdGenerator {
  newId(prefix: string): string;
}

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const systemClock: Clock = { now: () => new Date() };

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const consoleLogger: Logger = {
  info: (m, f) => console.log(m, f ?? ''),
  warn: (m, f) => console.warn(m, f ?? ''),
  error: (m, f) => console.error(m, f ?? ''),
};
