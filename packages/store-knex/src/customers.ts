import { ASSET_CODES, type CustomerPatch, MeterError, type MeterStore } from '@meter/core';
import { pageOf, type StoreContext, uniqueOr } from './context.js';
import { lockRows, toBigInt } from './dialect.js';
import { patchColumns, type Row, toBalance, toCustomer } from './rows.js';

type CustomerStore = Pick<
  MeterStore,
  | 'createCustomer'
  | 'listCustomers'
  | 'getCustomer'
  | 'getCustomerByExternalId'
  | 'updateCustomer'
  | 'deleteCustomer'
  | 'listBalances'
>;

const externalIdTaken = () => new MeterError('conflict', 'A customer with this externalId already exists');

const CUSTOMER_COLUMNS: { [K in keyof CustomerPatch]-?: string } = {
  externalId: 'external_id',
  name: 'name',
  email: 'email',
  metadata: 'metadata',
};

/** Customers and their balances. */
export function customerStore(ctx: StoreContext): CustomerStore {
  const { knex, dialect } = ctx;

  async function getCustomer(developerId: string, id: string) {
    const row = (await knex('customers').where({ id, developer_id: developerId }).first()) as Row | undefined;
    return row ? toCustomer(row) : null;
  }

  return {
    async createCustomer(input) {
      const at = input.createdAt.getTime();
      await uniqueOr(
        () =>
          ctx.transact(async (trx) => {
            await trx('customers').insert({
              id: input.id,
              developer_id: input.developerId,
              external_id: input.externalId,
              name: input.name,
              email: input.email,
              metadata: JSON.stringify(input.metadata),
              created_at: at,
              updated_at: at,
            });
            // Zero rows for every asset, so a charge is one conditional UPDATE with no upsert.
            await trx('balances').insert(
              ASSET_CODES.map((asset) => ({
                customer_id: input.id,
                asset,
                developer_id: input.developerId,
                available: 0,
                total_funded: 0,
                total_spent: 0,
                updated_at: at,
              })),
            );
          }),
        externalIdTaken,
      );
      return { ...input, updatedAt: input.createdAt };
    },

    listCustomers(developerId, page) {
      return pageOf(knex('customers').where({ developer_id: developerId }), page, toCustomer);
    },

    getCustomer,

    async getCustomerByExternalId(developerId, externalId) {
      const row = (await knex('customers')
        .where({ developer_id: developerId, external_id: externalId })
        .first()) as Row | undefined;
      return row ? toCustomer(row) : null;
    },

    async updateCustomer(developerId, id, patch, now) {
      const columns = patchColumns(patch, CUSTOMER_COLUMNS, { metadata: (m) => JSON.stringify(m) });
      const changed = await uniqueOr(
        () =>
          knex('customers')
            .where({ id, developer_id: developerId })
            .update({ ...columns, updated_at: now.getTime() }),
        externalIdTaken,
      );
      return changed > 0 ? getCustomer(developerId, id) : null;
    },

    /**
     * Locks the customer row (so no balance row can be inserted: balances reference it) and
     * then its balance rows, and decides on the values read under those locks: a credit that
     * commits first is seen, one that comes later waits and then finds no customer.
     */
    deleteCustomer(developerId, id) {
      return ctx.transact(async (trx) => {
        const customer = await lockRows(
          dialect,
          trx('customers').where({ id, developer_id: developerId }).select('id'),
        );
        if (customer.length === 0) return 'not_found' as const;
        const balances = (await lockRows(
          dialect,
          trx('balances').where({ customer_id: id }).select('available'),
        )) as Row[];
        if (balances.some((b) => toBigInt(b.available) !== 0n)) return 'has_balance' as const;
        const deleted = await trx('balances').where({ customer_id: id, available: 0 }).del();
        if (deleted !== balances.length) {
          throw new MeterError('conflict', 'The customer balance changed; try again');
        }
        await trx('customers').where({ id, developer_id: developerId }).del();
        return 'deleted' as const;
      });
    },

    async listBalances(developerId, customerId) {
      // Rows of never-funded assets exist (created with the customer) but are not reported.
      const rows = (await knex('balances')
        .where({ developer_id: developerId, customer_id: customerId })
        .where((q) => q.where('total_funded', '<>', 0).orWhere('total_spent', '<>', 0))
        .orderBy('asset')) as Row[];
      return rows.map(toBalance);
    },
  };
}
