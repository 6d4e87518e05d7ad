import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, MIGRATIONS_TABLE, migrate } from '../src/index.js';
import { mysql, type OpenTestDatabase, postgres, sqliteFile, sqliteMemory } from './databases.js';

const POSTGRES_URL = process.env.METER_TEST_POSTGRES_URL;
const MYSQL_URL = process.env.METER_TEST_MYSQL_URL;

const databases: [string, OpenTestDatabase | undefined][] = [
  ['SQLite :memory:', sqliteMemory],
  ['a SQLite file', sqliteFile],
  ['PostgreSQL (METER_TEST_POSTGRES_URL)', POSTGRES_URL ? postgres(POSTGRES_URL) : undefined],
  ['MySQL/MariaDB (METER_TEST_MYSQL_URL)', MYSQL_URL ? mysql(MYSQL_URL) : undefined],
];

describe.each(databases)('migrate() on %s', (_label, open) => {
  it.runIf(open)('creates the schema, and runs again as a no-op', async () => {
    const db = await open!();
    try {
      await migrate(db.knex);
      await migrate(db.knex);
      await migrate(db.knex);
      const applied = await db.knex(MIGRATIONS_TABLE).select('name');
      expect(applied.map((r) => r.name)).toEqual([...MIGRATION_NAMES]);
      for (const table of [
        'developers',
        'balances',
        'idempotency_keys',
        'ledger_entries',
        'webhook_attempts',
      ]) {
        expect(await db.knex.schema.hasTable(table)).toBe(true);
      }
    } finally {
      await db.destroy();
    }
  });
});
