import type { Knex } from 'knex';
import { type DialectName, detectDialect, isRetryable } from './dialect.js';
import * as initial from './migrations/0001-initial.js';
import * as webhookDelivery from './migrations/0002-webhook-delivery.js';

/**
 * Migrations are modules imported here, not files found by a directory glob, so they run
 * the same from sources and from the bundled dist. Append new ones; never rename one.
 */
const MIGRATIONS: Record<string, Knex.Migration> = {
  '0001_initial': initial,
  '0002_webhook_delivery': webhookDelivery,
};

/** The names of the package's migrations, in the order they run. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = MIGRATIONS[name];
    if (!migration) throw new Error(`unknown @meter/store-knex migration "${name}"`);
    return migration;
  },
};

/** Knex's bookkeeping tables, named so they don't collide with the host application's own migrations. */
export const MIGRATIONS_TABLE = 'meter_knex_migrations';

const config = { migrationSource, tableName: MIGRATIONS_TABLE };

/** Any fixed 64-bit number, the same in every process: the PostgreSQL advisory lock key. */
const PG_LOCK_KEY = 7_160_451_311_093_312n;
const MYSQL_LOCK_NAME = MIGRATIONS_TABLE;
const MYSQL_LOCK_WAIT_SECS = 120;

/**
 * Brings the schema up to date and returns the names of the migrations it applied (none when
 * it already was), so it can run on every start. Safe when several processes start at once on
 * one database: knex's own lock is not (racing first runs fail, and can leave two rows in its
 * lock table so that every later run fails), so the run is serialised by the database
 * first: a transaction-scoped advisory lock on PostgreSQL, a named lock (GET_LOCK) on MySQL,
 * and on SQLite one transaction, retried when another process's write got there first.
 * Holding that, nobody else is migrating, so knex's lock table is repaired if it needs it.
 */
export async function migrate(knex: Knex): Promise<string[]> {
  const dialect = detectDialect(knex);
  if (dialect === 'mysql') return withMysqlLock(knex, async () => applied(await knex.migrate.latest(config)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await knex.transaction(async (trx) => {
        if (dialect === 'pg') {
          await trx.raw('select pg_advisory_xact_lock(?::bigint)', [PG_LOCK_KEY.toString()]);
        }
        await resetKnexLock(trx);
        return applied(await trx.migrate.latest(config));
      });
    } catch (err) {
      if (attempt >= 10 || !startOver(dialect, err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 50));
    }
  }
}

/**
 * SQLite: another process committed a write after this transaction's first read, so its
 * snapshot cannot write ("database is locked" at once, whatever busy_timeout says; knex
 * reports it on its lock table as MigrationLocked). Everything ran in one transaction, so
 * running it again from the start is safe.
 */
function startOver(dialect: DialectName, err: unknown): boolean {
  if (isRetryable(dialect, err)) return true;
  return dialect === 'sqlite' && /database is locked/i.test((err as Error)?.message ?? '');
}

function applied(result: unknown): string[] {
  const [, names] = result as [number, string[]];
  return names;
}

/**
 * MySQL commits DDL implicitly, so no transaction can hold the migration together. A named
 * lock belongs to a connection, not a transaction: it is taken on one connection of the pool
 * while the migrations run on another (the pool needs at least two).
 */
async function withMysqlLock<T>(knex: Knex, work: () => Promise<T>): Promise<T> {
  const connection = await knex.client.acquireConnection();
  try {
    const [rows] = (await knex
      .raw('select get_lock(?, ?) as got', [MYSQL_LOCK_NAME, MYSQL_LOCK_WAIT_SECS])
      .connection(connection)) as [{ got: number | string | null }[]];
    if (Number(rows[0]?.got) !== 1) {
      throw new Error(
        `Another process has been migrating this database for over ${MYSQL_LOCK_WAIT_SECS} s (MySQL lock "${MYSQL_LOCK_NAME}")`,
      );
    }
    // This also clears a knex lock left set by a process that died mid-migration (MySQL
    // cannot roll DDL back, so knex's lock is not released with the transaction there).
    await resetKnexLock(knex);
    try {
      return await work();
    } finally {
      await knex.raw('select release_lock(?)', [MYSQL_LOCK_NAME]).connection(connection);
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

/**
 * Leaves knex's lock table as knex expects it: one row, unlocked. Only called while holding
 * the database lock above; a no-op (and no write) when the table is already right.
 */
async function resetKnexLock(db: Knex): Promise<void> {
  const table = `${MIGRATIONS_TABLE}_lock`;
  if (!(await db.schema.hasTable(table))) return;
  const rows = (await db(table).select('is_locked')) as { is_locked: unknown }[];
  if (rows.length === 1 && Number(rows[0]!.is_locked) === 0) return;
  await db(table).delete();
  await db(table).insert({ is_locked: 0 });
}

/** The migrations this package ships and which of them the database has not run; changes nothing. */
export async function migrationStatus(knex: Knex): Promise<{ applied: string[]; pending: string[] }> {
  const all = Object.keys(MIGRATIONS);
  const done = (await knex.schema.hasTable(MIGRATIONS_TABLE))
    ? ((await knex(MIGRATIONS_TABLE).select('name')) as { name: string }[]).map((r) => r.name)
    : [];
  return { applied: all.filter((n) => done.includes(n)), pending: all.filter((n) => !done.includes(n)) };
}
