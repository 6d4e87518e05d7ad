import { describe } from 'vitest';
import { mysql, postgres, sqliteFile, sqliteMemory } from './databases.js';
import { runStoreSuite } from './store-suite.js';

const POSTGRES_URL = process.env.METER_TEST_POSTGRES_URL;
const MYSQL_URL = process.env.METER_TEST_MYSQL_URL;

runStoreSuite('knexStore on SQLite :memory:', sqliteMemory);
runStoreSuite('knexStore on a SQLite file', sqliteFile);
describe.runIf(POSTGRES_URL)('PostgreSQL (METER_TEST_POSTGRES_URL)', () => {
  runStoreSuite('knexStore on PostgreSQL', postgres(POSTGRES_URL!));
});
describe.runIf(MYSQL_URL)('MySQL/MariaDB (METER_TEST_MYSQL_URL)', () => {
  runStoreSuite('knexStore on MySQL/MariaDB', mysql(MYSQL_URL!));
});
