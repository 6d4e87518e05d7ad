import type { MeterStore } from '@meter/core';
import type { Knex } from 'knex';
import { catalogStore } from './catalog.js';
import { createKnexFromUrl } from './connection.js';
import { createContext } from './context.js';
import { customerStore } from './customers.js';
import { developerStore } from './developers.js';
import { type DialectName, detectDialect } from './dialect.js';
import { withStoreErrors } from './errors.js';
import { invariantStore } from './invariants.js';
import { ledgerStore } from './ledger.js';
import { migrate } from './migrate.js';
import { paymentStore } from './payments.js';
import { summaryStore } from './summary.js';
import { usageStore } from './usage.js';
import { webhookStore } from './webhooks.js';

export { createKnexFromUrl, knexConfigFromUrl } from './connection.js';
export type { DialectName } from './dialect.js';
export { isDatabaseUnavailable } from './errors.js';
export { MIGRATION_NAMES, MIGRATIONS_TABLE, migrate } from './migrate.js';

export interface KnexStoreOptions {
  /** Detected from the knex client when omitted. */
  dialect?: DialectName;
  /** Whether close() destroys the knex instance; default true. Pass false when the host app shares its knex. */
  destroyOnClose?: boolean;
}

/**
 * A MeterStore on knex: SQLite (better-sqlite3), PostgreSQL (pg) or MySQL/MariaDB (mysql2).
 * Run migrate() first. The knex instance must read BIGINT exactly: createKnexFromUrl() sets
 * that up (better-sqlite3 safe integers; mysql2 supportBigNumbers + bigNumberStrings; pg
 * returns int8 as strings by default). Reads that come back rounded are refused, not used.
 */
export function knexStore(knex: Knex, opts: KnexStoreOptions = {}): MeterStore {
  const ctx = createContext(knex, opts.dialect ?? detectDialect(knex));
  // A database that cannot be reached rejects every method with MeterError('store_unavailable').
  return withStoreErrors<MeterStore>({
    ...developerStore(ctx),
    ...catalogStore(ctx),
    ...customerStore(ctx),
    ...paymentStore(ctx),
    ...usageStore(ctx),
    ...ledgerStore(ctx),
    ...webhookStore(ctx),
    ...summaryStore(ctx),
    ...invariantStore(ctx),
    async close() {
      if (opts.destroyOnClose !== false) await knex.destroy();
    },
  });
}

/** DATABASE_URL to a ready store: connects, migrates, and returns the store (which owns the connection). */
export async function openStore(url: string): Promise<MeterStore> {
  const knex = createKnexFromUrl(url);
  try {
    await migrate(knex);
  } catch (err) {
    await knex.destroy();
    throw err;
  }
  return knexStore(knex);
}
