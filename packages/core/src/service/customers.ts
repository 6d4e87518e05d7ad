import { MeterError, notFound } from '../domain/errors.js';
import type { AssetCode } from '../domain/money.js';
import type { Balance, Customer } from '../domain/types.js';
import type { Page, PageQuery } from '../ports/meter-store.js';
import type { ServiceContext } from './context.js';
import {
  assetSchema,
  type CreateCustomerInput,
  createCustomerSchema,
  parseInput,
  type UpdateCustomerInput,
  updateCustomerSchema,
} from './schemas.js';

export function customerOperations({ store, clock, ids }: ServiceContext) {
  async function requireCustomer(developerId: string, id: string): Promise<Customer> {
    const customer = await store.getCustomer(developerId, id);
    if (!customer) throw notFound('Customer');
    return customer;
  }

  async function listBalances(developerId: string, customerId: string): Promise<Balance[]> {
    await requireCustomer(developerId, customerId);
    return store.listBalances(developerId, customerId);
  }

  return {
    async createCustomer(developerId: string, input: CreateCustomerInput): Promise<Customer> {
      const data = parseInput(createCustomerSchema, input);
      return store.createCustomer({
        id: ids.newId('cus'),
        developerId,
        externalId: data.externalId,
        name: data.name ?? null,
        email: data.email ?? null,
        metadata: data.metadata ?? {},
        createdAt: clock.now(),
      });
    },

    listCustomers(developerId: string, page: PageQuery): Promise<Page<Customer>> {
      return store.listCustomers(developerId, page);
    },

    getCustomer: requireCustomer,

    async getCustomerByExternalId(developerId: string, externalId: string): Promise<Customer> {
      const customer = await store.getCustomerByExternalId(developerId, externalId);
      if (!customer) throw notFound(`Customer "${externalId}"`);
      return customer;
    },

    async updateCustomer(developerId: string, id: string, input: UpdateCustomerInput): Promise<Customer> {
      const data = parseInput(updateCustomerSchema, input);
      const patch = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
      const updated = await store.updateCustomer(developerId, id, patch, clock.now());
      if (!updated) throw notFound('Customer');
      return updated;
    },

    /** Refused with `conflict` while any of the customer's balances is non-zero. */
    async deleteCustomer(developerId: string, id: string): Promise<void> {
      const result = await store.deleteCustomer(developerId, id);
      if (result === 'not_found') throw notFound('Customer');
      if (result === 'has_balance') {
        throw new MeterError('conflict', 'The customer has a non-zero balance and cannot be deleted');
      }
    },

    listBalances,

    /** One balance; an asset never funded reads as zeros. */
    async getBalance(developerId: string, customerId: string, asset: string = 'CKB'): Promise<Balance> {
      const code: AssetCode = parseInput(assetSchema, asset);
      const customer = await requireCustomer(developerId, customerId);
      const balances = await store.listBalances(developerId, customerId);
      return (
        balances.find((b) => b.asset === code) ?? {
          customerId,
          asset: code,
          available: 0n,
          totalFunded: 0n,
          totalSpent: 0n,
          updatedAt: customer.createdAt,
        }
      );
    },
  };
}
