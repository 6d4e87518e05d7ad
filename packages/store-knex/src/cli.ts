#!/usr/bin/env node
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { knexConfigFromUrl } from './connection.js';
import { knexStore } from './index.js';
import { migrate, migrationStatus } from './migrate.js';

const USAGE = `Usage: meter <command> [--database-url URL]

Commands:
  migrate   bring the database schema up to date
  doctor    check the money invariants (changes nothing); exit 1 on a violation

The database is --database-url, else DATABASE_URL, else sqlite:./data/meter.db.
Exit codes: 0 ok, 1 invariant violations, 2 anything else (usage, URL, connection, schema).`;

/** The demo server's default (loadConfig), so `meter doctor` with no settings checks the demo's data. */
const DEFAULT_DATABASE_URL = 'sqlite:./data/meter.db';

/** A known problem (the URL, the connection, the schema): one line on stderr, no stack trace. */
class SetupError extends Error {}
/** A wrong command line: the message and the usage. */
class UsageError extends SetupError {}

function parseArgs(argv: string[]): { command: string; url: string | undefined } {
  let command: string | undefined;
  let url: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--database-url') {
      url = argv[++i];
      if (!url) throw new UsageError('--database-url needs a value');
    } else if (arg.startsWith('--database-url=')) {
      url = arg.slice('--database-url='.length);
    } else if (arg.startsWith('-') || command) {
      throw new UsageError(`unexpected argument "${arg}"`);
    } else {
      command = arg;
    }
  }
  if (command !== 'migrate' && command !== 'doctor') {
    throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
  return { command, url };
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}

/** Connects and proves the connection works; doctor refuses a SQLite file that isn't there rather than create it. */
async function connect(url: string, create: boolean): Promise<Knex> {
  let config: Knex.Config;
  try {
    config = knexConfigFromUrl(url);
  } catch (err) {
    throw new SetupError((err as Error).message);
  }
  const filename = (config.connection as { filename?: string }).filename;
  if (filename && filename !== ':memory:') {
    if (create) mkdirSync(dirname(filename), { recursive: true });
    else if (!existsSync(filename)) throw new SetupError(`no SQLite database at ${filename}`);
  }
  // knex's own logger would print connection failures again, with a stack trace.
  const quiet = () => {};
  const knex = knexFactory({
    ...config,
    acquireConnectionTimeout: config.acquireConnectionTimeout ?? 10_000,
    log: { warn: quiet, error: quiet, deprecate: quiet, debug: quiet },
  });
  try {
    await knex.raw('select 1');
  } catch (err) {
    await knex.destroy();
    throw new SetupError(`cannot connect to ${redact(url)}: ${(err as Error).message}`);
  }
  return knex;
}

async function runMigrate(knex: Knex): Promise<number> {
  const applied = await migrate(knex);
  const { applied: all } = await migrationStatus(knex);
  console.log(
    applied.length > 0
      ? `ok: applied ${count(applied.length, 'migration')}: ${applied.join(', ')}`
      : `ok: schema up to date (${count(all.length, 'migration')} applied earlier)`,
  );
  return 0;
}

async function runDoctor(knex: Knex): Promise<number> {
  const { pending } = await migrationStatus(knex);
  if (pending.length > 0) {
    throw new SetupError(
      `the schema is not up to date (pending: ${pending.join(', ')}); run "meter migrate"`,
    );
  }
  const store = knexStore(knex, { destroyOnClose: false });
  const [{ n }] = (await knex('balances').count({ n: '*' })) as [{ n: number | string }];
  const violations = await store.checkInvariants();
  if (violations.length === 0) {
    console.log(`ok: ${count(Number(n), 'balance')} checked`);
    return 0;
  }
  for (const v of violations) {
    console.log(`${v.kind}: customer ${v.customerId} ${v.asset}: ${v.detail}`);
  }
  console.log(count(violations.length, 'violation'));
  return 1;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const { command, url } = parseArgs(argv);
  const databaseUrl = url ?? (process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  const knex = await connect(databaseUrl, command === 'migrate');
  try {
    return command === 'migrate' ? await runMigrate(knex) : await runDoctor(knex);
  } finally {
    await knex.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Anything else (a failing migration, a query error) is shown with its message only too:
    // this is an operator's command, and the message names the statement that failed.
    console.error(`meter: ${err instanceof Error ? err.message : String(err)}`);
    if (err instanceof UsageError) console.error(USAGE);
    process.exitCode = 2;
  },
);
