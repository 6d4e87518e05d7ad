import { MeterError } from '@meter/core';
import type { Knex } from 'knex';

// Every difference between SQLite (better-sqlite3), PostgreSQL (pg) and MySQL/MariaDB (mysql2)
// that the store cares about lives in this file.

/** The databases the store runs on. */
export type DialectName = 'sqlite' | 'pg' | 'mysql';

export function detectDialect(knex: Knex): DialectName {
  const name = String(knex.client.dialect ?? knex.client.config.client ?? '').toLowerCase();
  if (name.includes('sqlite')) return 'sqlite';
  if (name.startsWith('postgres') || name === 'pg') return 'pg';
  if (name.startsWith('mysql') || name.startsWith('maria')) return 'mysql';
  throw new MeterError('internal_error', `@meter/store-knex does not support the knex client "${name}"`);
}

interface SqliteConnection {
  pragma(source: string): unknown;
  defaultSafeIntegers(toggle: boolean): unknown;
}

/**
 * better-sqlite3 connection setup. Safe integers make every INTEGER come back as a bigint, so
 * amounts above 2^53 stay exact. WAL plus busy_timeout lets other processes wait for the
 * write lock instead of failing. Within one process knex keeps a single connection, so
 * transactions queue for it and never meet SQLITE_BUSY.
 */
export function sqliteAfterCreate(
  conn: SqliteConnection,
  done: (err: Error | null, conn: unknown) => void,
): void {
  try {
    conn.defaultSafeIntegers(true);
    conn.pragma('journal_mode = WAL');
    // Explicit, so a new file and a reused one behave alike: a committed charge or credit
    // survives a power cut (NORMAL could lose the last transactions in WAL mode).
    conn.pragma('synchronous = FULL');
    conn.pragma('busy_timeout = 5000');
    conn.pragma('foreign_keys = ON');
    done(null, conn);
  } catch (err) {
    done(err as Error, conn);
  }
}

/** mysql2 must hand BIGINT and DECIMAL values over as strings; numbers would round above 2^53. */
export const MYSQL_CONNECTION_OPTIONS = {
  supportBigNumbers: true,
  bigNumberStrings: true,
  charset: 'utf8mb4',
} as const;

/**
 * A bigint as an SQL integer literal. Bound parameters are not exact everywhere: MySQL does
 * arithmetic and comparisons between a BIGINT column and a string parameter in DOUBLE. A
 * bigint's decimal form is only digits and a sign, so inlining it cannot inject anything.
 */
export function sqlInt(knex: Knex, value: bigint): Knex.Raw {
  if (typeof value !== 'bigint') throw new TypeError('sqlInt expects a bigint');
  return knex.raw(`(${value.toString()})`);
}

/**
 * Reads an integer the driver returned: a bigint (better-sqlite3 with safe integers), a
 * string (pg int8 and numeric, mysql2 with bigNumberStrings) or a safe number (int columns,
 * counts). A number above 2^53 means the driver was set up to round, so it is refused.
 */
export function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return BigInt(value);
  } else if (typeof value === 'string') {
    const match = /^(-?\d+)(?:\.0*)?$/.exec(value.trim());
    if (match) return BigInt(match[1]!);
  }
  throw new MeterError(
    'internal_error',
    `The database driver returned an inexact integer (${String(value)}); create the knex instance with ` +
      'createKnexFromUrl() or configure exact BIGINT reads (see @meter/store-knex docs)',
  );
}

/** Reads a small integer (counts, timestamps, status codes). */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint' || typeof value === 'string') return Number(value);
  throw new TypeError(`expected an integer, got ${typeof value}`);
}

/**
 * `SUM(expr)` that cannot overflow: SQLite's sum() raises "integer overflow" past 2^63, so
 * there the value is summed as high and low 32-bit halves. Read it back with readBigSum().
 */
export function bigSum(knex: Knex, dialect: DialectName, expr: string, alias: string): Knex.Raw {
  if (dialect === 'sqlite') {
    return knex.raw(`sum((${expr}) >> 32) as ??, sum((${expr}) & 4294967295) as ??`, [
      `${alias}_hi`,
      `${alias}_lo`,
    ]);
  }
  return knex.raw(`sum(${expr}) as ??`, [alias]);
}

export function readBigSum(dialect: DialectName, row: Record<string, unknown>, alias: string): bigint {
  if (dialect === 'sqlite') {
    const hi = row[`${alias}_hi`];
    const lo = row[`${alias}_lo`];
    return (hi == null ? 0n : toBigInt(hi) << 32n) + (lo == null ? 0n : toBigInt(lo));
  }
  const value = row[alias];
  return value == null ? 0n : toBigInt(value);
}

/** A locking read on PostgreSQL and MySQL; SQLite has one writer at a time, so no lock is needed. */
/** Whether UPDATE ... RETURNING is available (PostgreSQL, SQLite >= 3.35); MySQL and MariaDB have none. */
export function supportsReturning(dialect: DialectName): boolean {
  return dialect !== 'mysql';
}

export function lockRows<Q extends Knex.QueryBuilder>(dialect: DialectName, query: Q): Q {
  return dialect === 'sqlite' ? query : (query.forUpdate() as Q);
}

/**
 * Inserts a row unless one with the same key exists. Returns true when it inserted, false
 * when the row existed, and null when the database cannot tell (MySQL). On MySQL this is
 * `INSERT ... ON DUPLICATE KEY UPDATE` with a no-op update rather than `INSERT IGNORE`:
 * it takes an exclusive lock on an existing row, so racing callers queue instead of each
 * holding a shared lock and deadlocking on the upgrade, and it does not turn other errors
 * (e.g. a value too long) into warnings. Callers that get anything but true read the row.
 */
export async function insertIfAbsent(
  dialect: DialectName,
  trx: Knex.Transaction,
  table: string,
  row: Record<string, unknown>,
  key: string[],
): Promise<boolean | null> {
  const first = key[0]!;
  if (dialect === 'mysql') {
    await trx(table).insert(row).onConflict(key).merge([first]);
    return null;
  }
  const inserted: unknown[] = await trx(table).insert(row).onConflict(key).ignore().returning(first);
  return inserted.length > 0;
}

function errorFields(err: unknown): { code: unknown; errno: unknown } {
  if (typeof err !== 'object' || err === null) return { code: undefined, errno: undefined };
  const e = err as { code?: unknown; errno?: unknown };
  return { code: e.code, errno: e.errno };
}

/** A unique-index or primary-key violation: SQLite, PostgreSQL (23505) or MySQL (1062). */
export function isUniqueViolation(err: unknown): boolean {
  const { code, errno } = errorFields(err);
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505' ||
    code === 'ER_DUP_ENTRY' ||
    errno === 1062
  );
}

/** A foreign-key violation: SQLite, PostgreSQL (23503) or MySQL (1452). */
export function isForeignKeyViolation(err: unknown): boolean {
  const { code, errno } = errorFields(err);
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503' || errno === 1452;
}

/** Failures where rolling back and running the whole transaction again is the remedy. */
export function isRetryable(dialect: DialectName, err: unknown): boolean {
  const { code, errno } = errorFields(err);
  if (dialect === 'pg') return code === '40001' || code === '40P01';
  if (dialect === 'mysql') return errno === 1213 || errno === 1205;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

const MAX_ATTEMPTS = 8;

/**
 * Runs `work` in a transaction, and again from the start (in a new transaction) when the
 * database aborted it for a deadlock, a serialization failure or, for SQLite shared by
 * several processes, a busy snapshot. `work` must therefore have no effects outside the
 * transaction.
 */
export async function transact<T>(
  knex: Knex,
  dialect: DialectName,
  work: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await knex.transaction(work);
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(dialect, err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

/**
 * MySQL/MariaDB tables use a binary, no-pad collation: ids, slugs, external ids and
 * idempotency keys compare byte for byte, as on PostgreSQL and SQLite (the default
 * collations are case-insensitive and ignore trailing spaces, which would merge keys).
 */
export async function mysqlCollation(knex: Knex): Promise<string> {
  const [rows] = (await knex.raw(
    "SHOW COLLATION WHERE Collation IN ('utf8mb4_0900_bin', 'utf8mb4_nopad_bin')",
  )) as [{ Collation: string }[]];
  const names = rows.map((r) => r.Collation);
  return names.includes('utf8mb4_0900_bin')
    ? 'utf8mb4_0900_bin'
    : names.includes('utf8mb4_nopad_bin')
      ? 'utf8mb4_nopad_bin'
      : 'utf8mb4_bin';
}
