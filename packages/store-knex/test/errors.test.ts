import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MeterError } from '@meter/core';
import knexFactory from 'knex';
import { describe, expect, it } from 'vitest';
import { toStoreError, withStoreErrors } from '../src/errors.js';
import { isDatabaseUnavailable, knexConfigFromUrl, knexStore } from '../src/index.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('store_unavailable', () => {
  it('recognises connection-level failures of every driver', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
    for (const code of ['57P01', '57P03', '08006', 'PROTOCOL_CONNECTION_LOST', 'ER_CON_COUNT_ERROR']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_CANTOPEN']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
    const timeout = Object.assign(new Error('Knex: Timeout acquiring a connection.'), {
      name: 'KnexTimeoutError',
    });
    expect(isDatabaseUnavailable(timeout)).toBe(true);
    expect(isDatabaseUnavailable(new Error('select 1 - Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error('ROLLBACK - Client has encountered a connection error and is not queryable'),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')]))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: withCode('ECONNRESET') }))).toBe(true);
  });

  it('leaves every other error alone, and MeterErrors unchanged', () => {
    for (const err of [
      withCode('23505'),
      withCode('ER_DUP_ENTRY'),
      withCode('SQLITE_CONSTRAINT_UNIQUE'),
      withCode('42P01'),
      new Error('syntax error'),
      'a string',
      null,
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
      expect(toStoreError(err)).toBe(err);
    }
    const conflict = new MeterError('conflict', 'taken', undefined, { cause: withCode('ECONNRESET') });
    expect(toStoreError(conflict)).toBe(conflict);
  });

  it('wraps every method: a connection failure rejects with store_unavailable and keeps the cause', async () => {
    const cause = withCode('ECONNREFUSED');
    const store = withStoreErrors({
      ok: async (n: number) => n + 1,
      down: async () => {
        throw cause;
      },
      bug: () => {
        throw new TypeError('bug');
      },
    });
    expect(await store.ok(1)).toBe(2);
    const err = await store.down().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeterError);
    expect(err).toMatchObject({ code: 'store_unavailable', cause });
    await expect(store.bug()).rejects.toThrow(TypeError);
  });

  it('a SQLite file that cannot be opened gives store_unavailable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'meter-cantopen-'));
    // A directory is not a database file: better-sqlite3 fails with SQLITE_CANTOPEN.
    const knex = knexFactory({ ...knexConfigFromUrl(`sqlite:${dir}`), log: { warn() {}, error() {} } });
    try {
      await expect(knexStore(knex, { destroyOnClose: false }).getDeveloper('dev_1')).rejects.toMatchObject({
        code: 'store_unavailable',
      });
    } finally {
      await knex.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
