import { runStoreConformance } from '@meter/core/testing';
import { describe } from 'vitest';
import { knexStore, migrate } from '../src/index.js';
import { mysql, type OpenTestDatabase, postgres, sqliteFile, sqliteMemory } from './databases.js';
import { knexRawReader } from './raw-reader.js';

const POSTGRES_URL = process.env.METER_TEST_POSTGRES_URL;
const MYSQL_URL = process.env.METER_TEST_MYSQL_URL;

/** A fresh migrated database per suite, read back through the raw reader. */
const setup = (open: OpenTestDatabase) => async () => {
  const db = await open();
  await migrate(db.knex);
  return {
    store: knexStore(db.knex, { destroyOnClose: false }),
    raw: knexRawReader(db.knex),
    teardown: db.destroy,
  };
};

runStoreConformance({ name: 'knexStore on SQLite :memory:', setup: setup(sqliteMemory) });
runStoreConformance({ name: 'knexStore on a SQLite file', setup: setup(sqliteFile) });
describe.runIf(POSTGRES_URL)('PostgreSQL (METER_TEST_POSTGRES_URL)', () => {
  runStoreConformance({ name: 'knexStore on PostgreSQL', setup: setup(postgres(POSTGRES_URL!)) });
});
describe.runIf(MYSQL_URL)('MySQL/MariaDB (METER_TEST_MYSQL_URL)', () => {
  runStoreConformance({ name: 'knexStore on MySQL/MariaDB', setup: setup(mysql(MYSQL_URL!)) });
});
