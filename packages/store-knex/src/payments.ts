import {
  type Balance,
  type CreditOutcome,
  type CreditPaymentInput,
  MAX_MINOR_UNITS,
  MeterError,
  type MeterStore,
  type PaymentRequest,
} from '@meter/core';
import type { Knex } from 'knex';
import { pageOf, type StoreContext } from './context.js';
import { insertIfAbsent, isForeignKeyViolation, lockRows } from './dialect.js';
import { insertOutboxRow } from './outbox.js';
import { type Row, toBalance, toPaymentRequest } from './rows.js';

type PaymentStore = Pick<
  MeterStore,
  | 'createPaymentRequest'
  | 'listPaymentRequests'
  | 'getPaymentRequest'
  | 'creditPaymentRequest'
  | 'closePaymentRequest'
>;

/** Payment requests and the one place a balance is credited. */
export function paymentStore(ctx: StoreContext): PaymentStore {
  const { knex, dialect } = ctx;

  async function getPaymentRequest(developerId: string, id: string) {
    const row = (await knex('payment_requests').where({ id, developer_id: developerId }).first()) as
      | Row
      | undefined;
    return row ? toPaymentRequest(row) : null;
  }

  /**
   * Adds the amount to the balance with a guard that keeps total_funded within BIGINT. The
   * row normally exists (made with the customer); if not it is inserted and updated again.
   */
  async function addToBalance(trx: Knex.Transaction, request: PaymentRequest, now: number): Promise<Balance> {
    const where = {
      customer_id: request.customerId,
      asset: request.asset,
      developer_id: request.developerId,
    };
    const amount = ctx.int(request.amount);
    const credit = () =>
      trx('balances')
        .where(where)
        .andWhere('total_funded', '<=', ctx.int(MAX_MINOR_UNITS - request.amount))
        .update({
          available: trx.raw('available + ?', [amount]),
          total_funded: trx.raw('total_funded + ?', [amount]),
          updated_at: now,
        });
    if ((await credit()) === 0) {
      const zero = { ...where, available: 0, total_funded: 0, total_spent: 0, updated_at: now };
      try {
        await insertIfAbsent(dialect, trx, 'balances', zero, ['customer_id', 'asset']);
      } catch (err) {
        // balances reference customers: the customer was deleted (the delete saw a zero balance).
        if (!isForeignKeyViolation(err)) throw err;
        throw new MeterError('conflict', 'The customer of this payment request was deleted');
      }
      if ((await credit()) === 0) {
        throw new MeterError('conflict', 'The balance would exceed the largest storable amount');
      }
    }
    return toBalance((await lockRows(dialect, trx('balances').where(where)).first()) as Row);
  }

  /** Why a request was not credited, read under a row lock so it is the latest committed state. */
  async function notCredited(trx: Knex.Transaction, input: CreditPaymentInput): Promise<CreditOutcome> {
    const where = { id: input.paymentRequestId, developer_id: input.developerId };
    const row = (await lockRows(dialect, trx('payment_requests').where(where)).first()) as Row | undefined;
    if (!row) return { outcome: 'not_found' };
    const request = toPaymentRequest(row);
    if (request.status === 'paid') return { outcome: 'already_paid', request };
    if (request.status === 'cancelled' || request.status === 'expired') {
      return { outcome: request.status, request };
    }
    if (input.enforceExpiry && request.expiresAt.getTime() <= input.now.getTime()) {
      await trx('payment_requests')
        .where({ ...where, status: 'pending' })
        .update({ status: 'expired' });
      return { outcome: 'expired', request: { ...request, status: 'expired' } };
    }
    throw new MeterError('internal_error', 'A pending payment request could not be marked paid');
  }

  return {
    async createPaymentRequest(input) {
      await knex('payment_requests').insert({
        id: input.id,
        developer_id: input.developerId,
        customer_id: input.customerId,
        amount: ctx.int(input.amount),
        asset: input.asset,
        status: 'pending',
        provider: input.provider,
        payment_uri: input.paymentUri,
        payment_hash: input.paymentHash,
        expires_at: input.expiresAt.getTime(),
        paid_at: null,
        metadata: JSON.stringify(input.metadata),
        created_at: input.createdAt.getTime(),
      });
      return { ...input, status: 'pending', paidAt: null };
    },

    listPaymentRequests(developerId, filter, page) {
      const now = filter.now.getTime();
      const query = knex('payment_requests').where({ developer_id: developerId });
      if (filter.customerId) query.where({ customer_id: filter.customerId });
      // A pending request past expiresAt is expired even before a write has marked it.
      if (filter.status === 'pending') query.where({ status: 'pending' }).andWhere('expires_at', '>', now);
      else if (filter.status === 'expired') {
        query.where((q) =>
          q
            .where({ status: 'expired' })
            .orWhere((p) => p.where({ status: 'pending' }).andWhere('expires_at', '<=', now)),
        );
      } else if (filter.status) query.where({ status: filter.status });
      return pageOf(query, page, toPaymentRequest);
    },

    getPaymentRequest,

    /**
     * The state change `pending -> paid` is the guard: only the caller whose conditional
     * UPDATE matched credits, in the same transaction; racing callers wait on the row lock
     * and then see 'paid'.
     */
    creditPaymentRequest(input) {
      return ctx.transact(async (trx): Promise<CreditOutcome> => {
        const now = input.now.getTime();
        const where = { id: input.paymentRequestId, developer_id: input.developerId };
        const claim = trx('payment_requests').where({ ...where, status: 'pending' });
        if (input.enforceExpiry) claim.andWhere('expires_at', '>', now);
        if ((await claim.update({ status: 'paid', paid_at: now })) === 0) return notCredited(trx, input);

        const request = toPaymentRequest((await trx('payment_requests').where(where).first()) as Row);
        const balance = await addToBalance(trx, request, now);
        await trx('ledger_entries').insert({
          id: input.ledgerEntryId,
          developer_id: request.developerId,
          customer_id: request.customerId,
          asset: request.asset,
          type: 'funding',
          direction: 'credit',
          amount: ctx.int(request.amount),
          balance_after: ctx.int(balance.available),
          reference_type: 'payment_request',
          reference_id: request.id,
          created_at: now,
        });
        await trx('meter_events').insert({
          id: input.event.id,
          developer_id: request.developerId,
          type: 'balance.funded',
          subject_id: request.id,
          payload: input.event.payload,
          created_at: now,
        });
        for (const delivery of input.webhooks) {
          await insertOutboxRow(trx, request.developerId, delivery, input.event.id, now);
        }
        return { outcome: 'credited', request, balance };
      });
    },

    closePaymentRequest(developerId, id, status) {
      return ctx.transact(async (trx) => {
        const changed = await trx('payment_requests')
          .where({ id, developer_id: developerId, status: 'pending' })
          .update({ status });
        if (changed === 0) return null;
        return toPaymentRequest(
          (await trx('payment_requests').where({ id, developer_id: developerId }).first()) as Row,
        );
      });
    },
  };
}
