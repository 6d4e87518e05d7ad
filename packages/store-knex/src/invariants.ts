import type { InvariantViolation, MeterStore } from '@meter/core';
import type { Knex } from 'knex';
import type { StoreContext } from './context.js';
import { bigSum, type DialectName, readBigSum, toBigInt } from './dialect.js';
import type { Row } from './rows.js';

const CREDITS = "case when direction = 'credit' then amount else 0 end";
const DEBITS = "case when direction = 'debit' then amount else 0 end";

/**
 * A transaction whose reads all see one snapshot. SQLite's read transactions always do (WAL);
 * knex would only warn about the options there. MySQL takes no READ ONLY here: knex writes
 * the two modes without the comma MySQL requires.
 */
const SNAPSHOT: Record<DialectName, Knex.TransactionConfig> = {
  pg: { isolationLevel: 'repeatable read', readOnly: true },
  mysql: { isolationLevel: 'repeatable read' },
  sqlite: {},
};

/**
 * The money invariants, from SQL aggregates compared as bigint: for every balance row,
 * ledger credits - debits = available = total_funded - total_spent and available >= 0;
 * ledger entries of a (customer, asset) without a balance row (a deleted customer) net to
 * zero; every charged usage event has exactly one ledger entry.
 */
export function invariantStore({ knex, dialect }: StoreContext): Pick<MeterStore, 'checkInvariants'> {
  return {
    async checkInvariants(developerId) {
      // One snapshot: read one after another, a charge committing between the reads would
      // show up as a mismatch that never existed.
      const [balances, ledger, unmatched] = await knex.transaction(async (trx) => {
        const scoped = (table: string) => {
          const query = trx(table);
          return developerId === undefined ? query : query.where(`${table}.developer_id`, developerId);
        };
        const balanceRows = (await scoped('balances').select(
          'customer_id',
          'asset',
          'available',
          'total_funded',
          'total_spent',
        )) as Row[];
        const ledgerRows = (await scoped('ledger_entries')
          .select(
            'customer_id',
            'asset',
            bigSum(knex, dialect, CREDITS, 'credits'),
            bigSum(knex, dialect, DEBITS, 'debits'),
          )
          .groupBy('customer_id', 'asset')) as Row[];
        const unmatchedRows = (await scoped('usage_events')
          .leftJoin('ledger_entries', (join) =>
            join
              .on('ledger_entries.reference_id', '=', 'usage_events.id')
              .andOn('ledger_entries.reference_type', '=', knex.raw('?', ['usage_event'])),
          )
          .where('usage_events.status', 'charged')
          .groupBy('usage_events.id', 'usage_events.customer_id', 'usage_events.asset')
          .havingRaw('count(ledger_entries.id) <> 1')
          .select('usage_events.id', 'usage_events.customer_id', 'usage_events.asset')
          .count({ entries: 'ledger_entries.id' })) as Row[];
        return [balanceRows, ledgerRows, unmatchedRows] as const;
      }, SNAPSHOT[dialect]);

      const violations: InvariantViolation[] = [];
      const report = (kind: InvariantViolation['kind'], row: Row, detail: string) =>
        violations.push({ kind, customerId: String(row.customer_id), asset: String(row.asset), detail });

      const net = new Map<string, bigint>();
      for (const row of ledger) {
        const sum = readBigSum(dialect, row, 'credits') - readBigSum(dialect, row, 'debits');
        net.set(`${row.customer_id}|${row.asset}`, sum);
      }
      for (const row of balances) {
        const key = `${row.customer_id}|${row.asset}`;
        const available = toBigInt(row.available);
        const funded = toBigInt(row.total_funded);
        const spent = toBigInt(row.total_spent);
        const ledgerNet = net.get(key) ?? 0n;
        net.delete(key);
        if (available < 0n) report('negative_balance', row, `available ${available} is negative`);
        if (available !== funded - spent) {
          report(
            'totals_mismatch',
            row,
            `available ${available} != total funded ${funded} - total spent ${spent}`,
          );
        }
        if (available !== ledgerNet) {
          report('ledger_mismatch', row, `available ${available} != ledger net ${ledgerNet}`);
        }
      }
      for (const [key, sum] of net) {
        if (sum === 0n) continue;
        const [customerId = '', asset = ''] = key.split('|');
        violations.push({
          kind: 'ledger_mismatch',
          customerId,
          asset,
          detail: `ledger net ${sum} without a balance row`,
        });
      }
      for (const row of unmatched) {
        report(
          'charge_without_ledger',
          row,
          `charged usage event ${row.id} has ${row.entries} ledger entries`,
        );
      }
      return violations;
    },
  };
}
