import type { MeterStore } from '@meter/core';
import { pageOf, type StoreContext } from './context.js';
import { toLedgerEntry } from './rows.js';

/** Ledger entries are written only by the money operations (payments.ts, usage.ts); this reads them. */
export function ledgerStore({ knex }: StoreContext): Pick<MeterStore, 'listLedgerEntries'> {
  return {
    listLedgerEntries(developerId, filter, page) {
      const query = knex('ledger_entries').where({ developer_id: developerId });
      if (filter.customerId) query.where({ customer_id: filter.customerId });
      if (filter.asset) query.where({ asset: filter.asset });
      return pageOf(query, page, toLedgerEntry);
    },
  };
}
