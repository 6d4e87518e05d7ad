import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MeterError } from '@meter/core';
import knexFactory, { type Knex } from 'knex';
import { MYSQL_CONNECTION_OPTIONS, sqliteAfterCreate } from './dialect.js';

// min 0 lets idle connections close, so a restarted database server leaves no dead ones behind.
const SERVER_POOL = { min: 0, max: 10 };

/**
 * How long a query waits for a pool connection. When the server does not answer, new
 * connections never complete; the request then fails with 'store_unavailable' (503) after
 * this long rather than after knex's default of 60 s. Dead connections are dropped by knex
 * when they are next acquired, and new ones are made once the server is back.
 */
const ACQUIRE_TIMEOUT_MS = 5000;

const SQLITE_FILE_RE = /\.(db|sqlite3?)$/i;

/**
 * Knex logs a stack trace for every failed connection attempt. Those failures already reach
 * the caller (a 503 `store_unavailable`, or one line at start-up), so they are not logged
 * twice; knex's other warnings still are.
 */
const KNEX_LOG: Knex.Config['log'] = {
  warn(message: string) {
    if (/^(Acquire connection error|Connection Error)/.test(String(message))) return;
    console.warn(message);
  },
};

/** The SQLite filename a URL names, or null when it is not a SQLite URL. */
function sqliteFilename(url: string): string | null {
  if (url === ':memory:' || url === 'sqlite::memory:' || url === 'sqlite://:memory:') return ':memory:';
  if (url.startsWith('file://')) return fileURLToPath(url);
  if (url.startsWith('file:')) return url.slice('file:'.length);
  if (url.startsWith('sqlite:')) {
    const rest = url.slice('sqlite:'.length);
    // sqlite:///abs/path.db and sqlite://rel.db as well as sqlite:./rel.db
    return rest.startsWith('//') ? rest.slice(2) : rest;
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && SQLITE_FILE_RE.test(url)) return url;
  return null;
}

/**
 * Knex configuration for a DATABASE_URL: `sqlite:./data/meter.db`, `sqlite::memory:`,
 * `file:...` or a bare `*.db` / `*.sqlite` path (better-sqlite3); `postgres://` or
 * `postgresql://` (pg); `mysql://` or `mariadb://` (mysql2). The drivers are set up for
 * exact BIGINT reads.
 */
export function knexConfigFromUrl(url: string): Knex.Config {
  const trimmed = url.trim();
  const filename = sqliteFilename(trimmed);
  if (filename !== null) {
    if (filename === '') throw new MeterError('validation_error', 'DATABASE_URL names no SQLite file');
    return {
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      // One connection: transactions in this process queue for it instead of racing for the lock.
      pool: { min: 1, max: 1, afterCreate: sqliteAfterCreate },
    };
  }
  if (/^postgres(ql)?:\/\//i.test(trimmed)) {
    return {
      client: 'pg',
      connection: trimmed,
      pool: SERVER_POOL,
      acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
      log: KNEX_LOG,
    };
  }
  if (/^(mysql|mariadb):\/\//i.test(trimmed)) {
    return {
      client: 'mysql2',
      connection: { uri: trimmed.replace(/^mariadb:/i, 'mysql:'), ...MYSQL_CONNECTION_OPTIONS },
      pool: SERVER_POOL,
      acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
      log: KNEX_LOG,
    };
  }
  throw new MeterError(
    'validation_error',
    'DATABASE_URL must start with sqlite:, file:, postgres://, postgresql://, mysql:// or mariadb://, or be a .db/.sqlite path',
  );
}

/** Creates a knex instance for a DATABASE_URL; a SQLite file's directory is created if missing. */
export function createKnexFromUrl(url: string): Knex {
  const config = knexConfigFromUrl(url);
  const connection = config.connection as { filename?: string } | string;
  if (typeof connection === 'object' && connection.filename && connection.filename !== ':memory:') {
    mkdirSync(dirname(connection.filename), { recursive: true });
  }
  return knexFactory(config);
}
