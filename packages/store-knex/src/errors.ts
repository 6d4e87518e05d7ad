import { MeterError } from '@meter/core';

// The one place that tells "the database cannot be reached" from every other failure.

/** Socket and DNS errors (Node), connection-level codes of mysql2, and PostgreSQL SQLSTATEs. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // mysql2 / MySQL: connection lost, handshake timed out, too many connections, server shutting down
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  // PostgreSQL: admin or crash shutdown, cannot connect now, connection exceptions, too many connections
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
]);

/**
 * Driver errors that carry no code. pg: a socket that closed under a query or a transaction
 * ("Connection terminated unexpectedly"; the ROLLBACK that follows reports "not queryable").
 * mysql2: a command on a connection that was already lost.
 */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /Client has encountered a connection error and is not queryable/i,
  /Can't add new command when connection is in closed state/i,
];

function isUnavailableOne(err: object): boolean {
  const { code, name, message } = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // better-sqlite3: still locked after busy_timeout (and the store's retries), or the file cannot be opened.
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_CANTOPEN')) return true;
    if (UNAVAILABLE_CODES.has(code)) return true;
  }
  // knex: no pool connection within acquireConnectionTimeout (the database does not answer).
  if (name === 'KnexTimeoutError') return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message));
}

/** Whether `err` (or its cause, or one of an AggregateError's errors) means the database cannot be reached. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 4) return false;
  if (isUnavailableOne(err)) return true;
  const { cause, errors } = err as { cause?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** A connection-level failure as MeterError('store_unavailable') (HTTP 503); anything else unchanged. */
export function toStoreError(err: unknown): unknown {
  if (err instanceof MeterError || !isDatabaseUnavailable(err)) return err;
  return new MeterError('store_unavailable', 'The database is unavailable; try again shortly', undefined, {
    cause: err,
  });
}

/**
 * Wraps every method of the store so that a database that cannot be reached rejects with
 * MeterError('store_unavailable') rather than a driver error (masked as a 500). Nothing is
 * retried here: a transaction cut off before COMMIT never takes effect, but one cut off
 * during COMMIT may have, so only the caller can repeat safely (the same idempotency key is
 * charged at most once; a payment request is credited at most once).
 */
export function withStoreErrors<T extends object>(store: T): T {
  const guarded: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(store)) {
    if (typeof member !== 'function') {
      guarded[name] = member;
      continue;
    }
    const method = member as (...args: unknown[]) => unknown;
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await method(...args);
      } catch (err) {
        throw toStoreError(err);
      }
    };
  }
  return guarded as T;
}
