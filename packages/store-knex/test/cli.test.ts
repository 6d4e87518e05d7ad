import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { createKnexFromUrl, MIGRATION_NAMES } from '../src/index.js';

const ALL = MIGRATION_NAMES.join(', ');
const COUNT = `${MIGRATION_NAMES.length} migration${MIGRATION_NAMES.length === 1 ? '' : 's'}`;

import { mysql, type OpenTestDatabase, postgres } from './databases.js';

const root = new URL('../../..', import.meta.url).pathname;
const cli = new URL('../src/cli.ts', import.meta.url).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `meter ...` from sources, as `npm run migrate` / `npm run doctor` do. */
function meter(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', cli, ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: '', ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}

/** A customer with a 5-shannon balance and its ledger credit, written directly. */
async function seedBalance(knex: Knex): Promise<void> {
  const now = Date.now();
  await knex('developers').insert({
    id: 'dev_1',
    email: 'd@x.io',
    name: 'D',
    password_hash: 'x',
    created_at: now,
  });
  await knex('customers').insert({
    id: 'cus_1',
    developer_id: 'dev_1',
    external_id: 'acme',
    metadata: '{}',
    created_at: now,
    updated_at: now,
  });
  await knex('balances').insert({
    customer_id: 'cus_1',
    asset: 'CKB',
    developer_id: 'dev_1',
    available: 5,
    total_funded: 5,
    total_spent: 0,
    updated_at: now,
  });
  await knex('ledger_entries').insert({
    id: 'led_1',
    developer_id: 'dev_1',
    customer_id: 'cus_1',
    asset: 'CKB',
    type: 'funding',
    direction: 'credit',
    amount: 5,
    balance_after: 5,
    reference_type: 'payment_request',
    reference_id: 'pr_1',
    created_at: now,
  });
}

/** migrate, then doctor on a sound and on a corrupted balance: the same on every database. */
async function migrateAndDoctor(url: string, knex: Knex): Promise<void> {
  const notMigrated = await meter(['doctor', '--database-url', url]);
  expect(notMigrated).toMatchObject({ code: 2, stdout: '' });
  expect(notMigrated.stderr).toBe(
    `meter: the schema is not up to date (pending: ${ALL}); run "meter migrate"\n`,
  );
  expect(await knex.schema.hasTable('meter_knex_migrations')).toBe(false);

  expect(await meter(['migrate', '--database-url', url])).toEqual({
    code: 0,
    stdout: `ok: applied ${COUNT}: ${ALL}\n`,
    stderr: '',
  });
  expect((await meter(['migrate'], { DATABASE_URL: url })).stdout).toBe(
    `ok: schema up to date (${COUNT} applied earlier)\n`,
  );

  await seedBalance(knex);
  expect(await meter(['doctor', `--database-url=${url}`])).toEqual({
    code: 0,
    stdout: 'ok: 1 balance checked\n',
    stderr: '',
  });

  await knex('balances').where({ customer_id: 'cus_1' }).update({ available: 4 });
  const corrupted = await meter(['doctor'], { DATABASE_URL: url });
  expect(corrupted.code).toBe(1);
  expect(corrupted.stdout.trim().split('\n')).toEqual([
    'totals_mismatch: customer cus_1 CKB: available 4 != total funded 5 - total spent 0',
    'ledger_mismatch: customer cus_1 CKB: available 4 != ledger net 5',
    '2 violations',
  ]);
}

/** Processes starting together on a new database (replicas of one deployment) all migrate it, once. */
async function concurrentMigrate(url: string, knex: Knex): Promise<void> {
  const runs = await Promise.all(Array.from({ length: 4 }, () => meter(['migrate', '--database-url', url])));
  expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
  expect(runs.filter((r) => r.stdout.startsWith(`ok: applied ${COUNT}:`))).toHaveLength(1);
  expect(await knex('meter_knex_migrations').select('name').orderBy('id')).toEqual(
    MIGRATION_NAMES.map((name) => ({ name })),
  );
  // knex's own lock table keeps exactly one row (racing first runs used to insert several,
  // and then every later run failed with "Migration table is already locked").
  const locks = async () =>
    (await knex('meter_knex_migrations_lock').select('is_locked')).map((l) => Number(l.is_locked));
  expect(await locks()).toEqual([0]);

  // A lock table left broken (by that race, or a process that died mid-migration) is repaired.
  await knex('meter_knex_migrations_lock').insert({ is_locked: 1 });
  expect(await meter(['migrate', '--database-url', url])).toMatchObject({ code: 0, stderr: '' });
  expect(await locks()).toEqual([0]);
}

describe('meter CLI on a SQLite file', () => {
  it('migrates, then reports sound and corrupted balances', async () => {
    const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'meter-cli-')), 'meter.db')}`;
    // doctor reads; it does not create a missing database.
    const missing = await meter(['doctor', '--database-url', url]);
    expect(missing).toMatchObject({ code: 2, stderr: `meter: no SQLite database at ${url.slice(7)}\n` });
    expect(existsSync(url.slice(7))).toBe(false);

    const knex = createKnexFromUrl(url);
    try {
      await knex.raw('select 1'); // an empty database file
      await migrateAndDoctor(url, knex);
    } finally {
      await knex.destroy();
    }
  }, 60_000);

  it('migrates once when several processes start together', async () => {
    const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'meter-cli-')), 'meter.db')}`;
    const knex = createKnexFromUrl(url);
    try {
      await concurrentMigrate(url, knex);
    } finally {
      await knex.destroy();
    }
  }, 60_000);

  it('stops with one line and exit 2 on a bad URL, an unreachable server or a bad command', async () => {
    const bad = await meter(['doctor', '--database-url', 'redis://localhost']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^meter: DATABASE_URL must start with sqlite:.*\n$/);

    const down = await meter(['doctor', '--database-url', 'postgres://meter:secret@127.0.0.1:1/meter']);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(
      /^meter: cannot connect to postgres:\/\/meter:\*\*\*@127\.0\.0\.1:1\/meter: .*\n$/,
    );

    const unknown = await meter(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^meter: unknown command "frobnicate"\nUsage: meter <command>/);
  }, 60_000);
});

const POSTGRES_URL = process.env.METER_TEST_POSTGRES_URL;
const MYSQL_URL = process.env.METER_TEST_MYSQL_URL;

function onServer(open: OpenTestDatabase) {
  it('migrates, then reports sound and corrupted balances', async () => {
    const db = await open();
    try {
      await migrateAndDoctor(db.url, db.knex);
    } finally {
      await db.destroy();
    }
  }, 60_000);

  it('migrates once when several processes start together', async () => {
    const db = await open();
    try {
      await concurrentMigrate(db.url, db.knex);
    } finally {
      await db.destroy();
    }
  }, 60_000);
}

describe.runIf(POSTGRES_URL)('meter CLI on PostgreSQL (METER_TEST_POSTGRES_URL)', () => {
  onServer(postgres(POSTGRES_URL!));
});
describe.runIf(MYSQL_URL)('meter CLI on MySQL/MariaDB (METER_TEST_MYSQL_URL)', () => {
  onServer(mysql(MYSQL_URL!));
});
