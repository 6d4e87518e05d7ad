import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knexStore, MIGRATIONS_TABLE, migrate } from '../src/index.js';
import type { OpenTestDatabase, TestDatabase } from './databases.js';
import { createHarness, type Harness } from './harness.js';
import { accountTests } from './suite-accounts.js';
import { listTests } from './suite-lists.js';
import { moneyTests } from './suite-money.js';

/** The one store test body every database runs. */
export function runStoreSuite(label: string, open: OpenTestDatabase): void {
  describe(label, () => {
    let db: TestDatabase | undefined;
    let harness: Harness | undefined;
    const h = (): Harness => {
      if (!harness) throw new Error('the test database did not open');
      return harness;
    };

    beforeAll(async () => {
      db = await open();
      await migrate(db.knex);
      harness = createHarness(knexStore(db.knex, { destroyOnClose: false }), db.knex);
    });
    afterAll(async () => {
      await db?.destroy();
    });

    it('migrations run again as a no-op', async () => {
      await migrate(h().knex);
      await migrate(h().knex);
      const applied = await h().knex(MIGRATIONS_TABLE).select('name');
      expect(applied.map((r) => r.name)).toEqual(['0001_initial']);
      for (const table of [
        'developers',
        'balances',
        'idempotency_keys',
        'ledger_entries',
        'webhook_attempts',
      ]) {
        expect(await h().knex.schema.hasTable(table)).toBe(true);
      }
    });

    accountTests(h);
    moneyTests(h);
    listTests(h);
  });
}
