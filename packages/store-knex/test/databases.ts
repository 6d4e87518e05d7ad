import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { createKnexFromUrl } from '../src/index.js';

/** A fresh, empty database for one test run, and how to get rid of it. */
export interface TestDatabase {
  knex: Knex;
  url: string;
  destroy(): Promise<void>;
}

export type OpenTestDatabase = () => Promise<TestDatabase>;

const uniqueName = () => `meter_test_${randomBytes(6).toString('hex')}`;

export const sqliteMemory: OpenTestDatabase = async () => {
  const url = 'sqlite::memory:';
  const knex = createKnexFromUrl(url);
  return { knex, url, destroy: () => knex.destroy() };
};

export const sqliteFile: OpenTestDatabase = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'meter-store-'));
  const url = `sqlite:${join(dir, 'nested', 'meter.db')}`;
  const knex = createKnexFromUrl(url);
  return {
    knex,
    url,
    async destroy() {
      await knex.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** Creates `meter_test_<random>` on the server behind `adminUrl` and drops it afterwards. */
function serverDatabase(adminUrl: string, dropSql: (name: string) => string): OpenTestDatabase {
  return async () => {
    const name = uniqueName();
    const admin = createKnexFromUrl(adminUrl);
    await admin.raw(`create database ${name}`);
    const target = new URL(adminUrl);
    target.pathname = `/${name}`;
    const url = target.toString();
    const knex = createKnexFromUrl(url);
    return {
      knex,
      url,
      async destroy() {
        await knex.destroy();
        await admin.raw(dropSql(name));
        await admin.destroy();
      },
    };
  };
}

export const postgres = (adminUrl: string) =>
  serverDatabase(adminUrl, (name) => `drop database ${name} with (force)`);
export const mysql = (adminUrl: string) => serverDatabase(adminUrl, (name) => `drop database ${name}`);
