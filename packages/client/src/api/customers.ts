import type { AssetCode, CreateCustomerInput, UpdateCustomerInput } from '@meter/core';
import type { Http } from './http.js';
import type { Balance, Customer, LedgerEntry, PageParams } from './types.js';

const id = encodeURIComponent;

export interface LedgerListParams extends PageParams {
  /** A customer's database id. */
  customerId?: string;
  asset?: AssetCode;
}

export function customersResource(http: Http) {
  return {
    /** POST /api/customers. Keep both `id` (balances, payments) and `externalId` (usage). */
    create(input: CreateCustomerInput) {
      return http.send<Customer>({ method: 'POST', path: '/api/customers', body: input });
    },
    /** GET /api/customers. */
    list(params: PageParams = {}) {
      return http.list<Customer>('/api/customers', { ...params });
    },
    /** GET /api/customers/:id. */
    get(customerId: string) {
      return http.send<Customer>({ method: 'GET', path: `/api/customers/${id(customerId)}` });
    },
    /** PUT /api/customers/:id: only the fields given change; `metadata` replaces the stored object. */
    update(customerId: string, input: UpdateCustomerInput) {
      return http.send<Customer>({ method: 'PUT', path: `/api/customers/${id(customerId)}`, body: input });
    },
    /** DELETE /api/customers/:id; refused (409) while a balance is not zero. */
    async delete(customerId: string): Promise<void> {
      await http.send({ method: 'DELETE', path: `/api/customers/${id(customerId)}` });
    },
  };
}

export function balancesResource(http: Http) {
  return {
    /** GET /api/customers/:id/balances: one balance per asset. */
    list(customerId: string) {
      return http.send<Balance[]>({ method: 'GET', path: `/api/customers/${id(customerId)}/balances` });
    },
    /** GET /api/customers/:id/balances/:asset; an unfunded customer reads as zeros. */
    get(customerId: string, asset: AssetCode = 'CKB') {
      return http.send<Balance>({
        method: 'GET',
        path: `/api/customers/${id(customerId)}/balances/${id(asset)}`,
      });
    },
  };
}

export function ledgerResource(http: Http) {
  return {
    /** GET /api/ledger: every balance movement, newest first. */
    list(params: LedgerListParams = {}) {
      return http.list<LedgerEntry>('/api/ledger', { ...params });
    },
  };
}
