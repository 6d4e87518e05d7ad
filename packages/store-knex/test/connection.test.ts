import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKnexFromUrl, knexConfigFromUrl } from '../src/index.js';

describe('knexConfigFromUrl', () => {
  const sqlite = (url: string) => {
    const config = knexConfigFromUrl(url);
    expect(config.client).toBe('better-sqlite3');
    return (config.connection as { filename: string }).filename;
  };

  it('reads SQLite URLs and paths', () => {
    expect(sqlite('sqlite:./data/meter.db')).toBe('./data/meter.db');
    expect(sqlite('sqlite::memory:')).toBe(':memory:');
    expect(sqlite('sqlite:///var/lib/meter.db')).toBe('/var/lib/meter.db');
    expect(sqlite('file:./meter.sqlite')).toBe('./meter.sqlite');
    expect(sqlite('file:///tmp/meter.db')).toBe('/tmp/meter.db');
    expect(sqlite('./data/meter.db')).toBe('./data/meter.db');
    expect(sqlite('/abs/meter.sqlite3')).toBe('/abs/meter.sqlite3');
  });

  it('reads PostgreSQL and MySQL URLs, with exact BIGINT reads on MySQL', () => {
    expect(knexConfigFromUrl('postgres://u:p@h:5432/db')).toMatchObject({
      client: 'pg',
      connection: 'postgres://u:p@h:5432/db',
    });
    expect(knexConfigFromUrl('postgresql://h/db').client).toBe('pg');
    expect(knexConfigFromUrl('mariadb://root@h:3306/db')).toMatchObject({
      client: 'mysql2',
      connection: { uri: 'mysql://root@h:3306/db', supportBigNumbers: true, bigNumberStrings: true },
    });
    expect(knexConfigFromUrl('mysql://root@h/db').client).toBe('mysql2');
  });

  it('refuses anything else', () => {
    expect(() => knexConfigFromUrl('redis://h')).toThrow(/DATABASE_URL/);
    expect(() => knexConfigFromUrl('meter')).toThrow(/DATABASE_URL/);
  });
});

describe('SQLite connection settings', () => {
  it('uses WAL with synchronous=FULL on a new file and on a reopened one', async () => {
    const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'meter-pragma-')), 'meter.db')}`;
    for (let open = 0; open < 2; open++) {
      const knex = createKnexFromUrl(url);
      try {
        const [mode] = (await knex.raw('pragma journal_mode')) as { journal_mode: string }[];
        const [sync] = (await knex.raw('pragma synchronous')) as { synchronous: bigint | number }[];
        expect(mode?.journal_mode).toBe('wal');
        expect(Number(sync?.synchronous)).toBe(2); // FULL
      } finally {
        await knex.destroy();
      }
    }
  });
});
