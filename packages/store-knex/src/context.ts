import type { Page, PageQuery } from '@meter/core';
import type { Knex } from 'knex';
import { type DialectName, isUniqueViolation, sqlInt, transact } from './dialect.js';
import type { Row } from './rows.js';

/** What every area of the store shares. */
export interface StoreContext {
  knex: Knex;
  dialect: DialectName;
  /** One transaction, retried from the start on deadlock or serialization failure. */
  transact<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
  /** A bigint as an exact SQL integer. */
  int(value: bigint): Knex.Raw;
}

export function createContext(knex: Knex, dialect: DialectName): StoreContext {
  return {
    knex,
    dialect,
    transact: (work) => transact(knex, dialect, work),
    int: (value) => sqlInt(knex, value),
  };
}

const MAX_PAGE_SIZE = 1000;

/** Newest first by id (ids sort by creation time); the next cursor is the last id returned. */
export async function pageOf<T>(
  query: Knex.QueryBuilder,
  page: PageQuery,
  map: (row: Row) => T,
): Promise<Page<T>> {
  const limit = Math.min(Math.max(Math.trunc(page.limit) || 1, 1), MAX_PAGE_SIZE);
  if (page.cursor) query.where('id', '<', page.cursor);
  const rows = (await query.orderBy('id', 'desc').limit(limit + 1)) as Row[];
  const items = rows.slice(0, limit);
  return { items: items.map(map), nextCursor: rows.length > limit ? String(items[limit - 1]!.id) : null };
}

/** Runs `write`, turning a unique-index violation into the given error. */
export async function uniqueOr<T>(write: () => Promise<T>, onConflict: () => Error): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw onConflict();
    throw err;
  }
}
