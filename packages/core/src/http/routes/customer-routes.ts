import { ASSET_CODES } from '../../domain/money.js';
import type { Route } from '../router.js';
import { enumFilter, listResult, pageQuery } from '../router.js';
import { serializeBalance, serializeCustomer, serializeLedgerEntry } from '../serializers.js';

export const customerRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/customers',
    auth: 'jwt',
    async handle({ meter, principal, json }) {
      return {
        status: 201,
        body: serializeCustomer(await meter.createCustomer(principal.developerId, json() as never)),
      };
    },
  },
  {
    method: 'GET',
    path: '/api/customers',
    auth: 'jwt',
    async handle({ meter, principal, request }) {
      return listResult(
        await meter.listCustomers(principal.developerId, pageQuery(request.query)),
        serializeCustomer,
      );
    },
  },
  {
    method: 'GET',
    path: '/api/customers/:id',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return { body: serializeCustomer(await meter.getCustomer(principal.developerId, params.id!)) };
    },
  },
  {
    method: 'PUT',
    path: '/api/customers/:id',
    auth: 'jwt',
    async handle({ meter, principal, params, json }) {
      return {
        body: serializeCustomer(
          await meter.updateCustomer(principal.developerId, params.id!, json() as never),
        ),
      };
    },
  },
  {
    method: 'DELETE',
    path: '/api/customers/:id',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      await meter.deleteCustomer(principal.developerId, params.id!);
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/api/customers/:id/balances',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      const balances = await Promise.all(
        ASSET_CODES.map((asset) => meter.getBalance(principal.developerId, params.id!, asset)),
      );
      return { body: balances.map(serializeBalance) };
    },
  },
  {
    method: 'GET',
    path: '/api/customers/:id/balances/:asset',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return {
        body: serializeBalance(await meter.getBalance(principal.developerId, params.id!, params.asset!)),
      };
    },
  },
  {
    method: 'GET',
    path: '/api/ledger',
    auth: 'jwt',
    async handle({ meter, principal, request }) {
      const customerId = request.query.get('customerId') || undefined;
      if (customerId) await meter.getCustomer(principal.developerId, customerId);
      const filter = { customerId, asset: enumFilter(request.query, 'asset', ASSET_CODES) };
      return listResult(
        await meter.listLedgerEntries(principal.developerId, filter, pageQuery(request.query)),
        serializeLedgerEntry,
      );
    },
  },
];
