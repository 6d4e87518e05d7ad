import type { Knex } from 'knex';
import * as initial from './migrations/0001-initial.js';

/**
 * Migrations are modules imported here, not files found by a directory glob, so they run
 * the same from sources and from the bundled dist. Append new ones; never rename one.
 */
const MIGRATIONS: Record<string, Knex.Migration> = {
  '0001_initial': initial,
};

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

/** Brings the schema up to date; a no-op when it already is, so it can run on every start. */
export async function migrate(knex: Knex): Promise<void> {
  await knex.migrate.latest({ migrationSource, tableName: MIGRATIONS_TABLE });
}
