import {
  type ChargeOutcome,
  type ChargeUsageInput,
  invalid,
  MAX_MINOR_UNITS,
  type MeterStore,
  type UsageEvent,
  type UsageStatus,
} from '@meter/core';
import type { Knex } from 'knex';
import { pageOf, type StoreContext } from './context.js';
import { insertIfAbsent, lockRows, supportsReturning, toBigInt } from './dialect.js';
import { insertOutboxRow } from './outbox.js';
import { type Row, toUsageEvent } from './rows.js';

type UsageStore = Pick<MeterStore, 'chargeUsage' | 'listUsageEvents' | 'findChargedUsage'>;

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Charging usage: idempotency key, conditional decrement, event, ledger debit and outbox row in one transaction. */
export function usageStore(ctx: StoreContext): UsageStore {
  const { knex, dialect } = ctx;

  function eventRow(event: UsageEvent): Row {
    return {
      id: event.id,
      developer_id: event.developerId,
      service_id: event.serviceId,
      service_slug: event.serviceSlug,
      customer_id: event.customerId,
      customer_external_id: event.customerExternalId,
      pricing_rule_id: event.pricingRuleId,
      metric_key: event.metricKey,
      quantity: String(event.quantity),
      amount: ctx.int(event.amount),
      asset: event.asset,
      status: event.status,
      idempotency_key: event.idempotencyKey,
      balance_after: ctx.int(event.balanceAfter),
      metadata: JSON.stringify(event.metadata),
      created_at: event.createdAt.getTime(),
    };
  }

  function newEvent(input: ChargeUsageInput, status: UsageStatus, balanceAfter: bigint): UsageEvent {
    return {
      id: input.usageEventId,
      developerId: input.developerId,
      serviceId: input.service.id,
      serviceSlug: input.service.slug,
      customerId: input.customer.id,
      customerExternalId: input.customer.externalId,
      pricingRuleId: input.pricingRuleId,
      metricKey: input.metricKey,
      quantity: input.quantity,
      amount: input.amount,
      asset: input.asset,
      status,
      idempotencyKey: input.idempotencyKey,
      balanceAfter,
      metadata: input.metadata,
      createdAt: input.now,
    };
  }

  /**
   * Claims the key: inserts it as 'rejected' (racing inserts of one key wait for each other
   * on the unique index), or takes the existing row's lock. Returns the outcome when the
   * key settles the call (another fingerprint, or already charged), null to go on charging.
   */
  async function claimKey(trx: Knex.Transaction, input: ChargeUsageInput): Promise<ChargeOutcome | null> {
    const now = input.now.getTime();
    const key = { developer_id: input.developerId, idempotency_key: input.idempotencyKey };
    const row = {
      ...key,
      fingerprint: input.fingerprint,
      status: 'rejected',
      usage_event_id: input.usageEventId,
      created_at: now,
      updated_at: now,
    };
    const inserted = await insertIfAbsent(dialect, trx, 'idempotency_keys', row, Object.keys(key));
    if (inserted) return null;

    const existing = (await lockRows(dialect, trx('idempotency_keys').where(key)).first()) as Row;
    if (existing.fingerprint !== input.fingerprint) return { outcome: 'idempotency_conflict' };
    if (existing.status !== 'charged') return null;
    const event = (await trx('usage_events')
      .where({ id: existing.usage_event_id, developer_id: input.developerId })
      .first()) as Row;
    return { outcome: 'charged', event: toUsageEvent(event), replay: true, deliveryId: null };
  }

  return {
    async chargeUsage(input) {
      if (input.amount < 0n || input.amount > MAX_MINOR_UNITS) throw invalid('amount is out of range');
      if (input.idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
        throw invalid(`idempotencyKey must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
      }
      return ctx.transact(async (trx): Promise<ChargeOutcome> => {
        const settled = await claimKey(trx, input);
        if (settled) return settled;

        const now = input.now.getTime();
        const amount = ctx.int(input.amount);
        const balance = {
          customer_id: input.customer.id,
          asset: input.asset,
          developer_id: input.developerId,
        };
        // The guard is in the UPDATE: it matches only while the balance covers the amount.
        const update = trx('balances')
          .where(balance)
          .andWhere('available', '>=', amount)
          .update({
            available: trx.raw('available - ?', [amount]),
            total_spent: trx.raw('total_spent + ?', [amount]),
            updated_at: now,
          });
        let decremented: number;
        let available: bigint | undefined;
        if (supportsReturning(dialect)) {
          // One round trip while the row is locked: the new balance comes back with the update.
          const rows = (await update.returning('available')) as Row[];
          decremented = rows.length;
          if (rows[0]) available = toBigInt(rows[0].available);
        } else {
          decremented = await update;
        }
        if (available === undefined) {
          const after = (await lockRows(
            dialect,
            trx('balances').where(balance).select('available'),
          ).first()) as Row | undefined;
          available = after ? toBigInt(after.available) : 0n;
        }
        const keyWhere = { developer_id: input.developerId, idempotency_key: input.idempotencyKey };

        if (decremented === 0) {
          const event = newEvent(input, 'insufficient_balance', available);
          await trx('usage_events').insert(eventRow(event));
          await trx('idempotency_keys').where(keyWhere).update({ usage_event_id: event.id, updated_at: now });
          return { outcome: 'insufficient_balance', event };
        }

        const event = newEvent(input, 'charged', available);
        await trx('usage_events').insert(eventRow(event));
        await trx('ledger_entries').insert({
          id: input.ledgerEntryId,
          developer_id: input.developerId,
          customer_id: input.customer.id,
          asset: input.asset,
          type: 'usage',
          direction: 'debit',
          amount,
          balance_after: ctx.int(available),
          reference_type: 'usage_event',
          reference_id: event.id,
          created_at: now,
        });
        if (input.webhook) {
          await insertOutboxRow(
            trx,
            input.developerId,
            { ...input.webhook, serviceId: input.service.id },
            event.id,
            now,
          );
        }
        await trx('idempotency_keys')
          .where(keyWhere)
          .update({ status: 'charged', usage_event_id: event.id, updated_at: now });
        return { outcome: 'charged', event, replay: false, deliveryId: input.webhook?.deliveryId ?? null };
      });
    },

    async findChargedUsage(developerId, idempotencyKey) {
      const row = (await knex('idempotency_keys as k')
        .join('usage_events as e', 'e.id', 'k.usage_event_id')
        .where({ 'k.developer_id': developerId, 'k.idempotency_key': idempotencyKey, 'k.status': 'charged' })
        .select('e.*', 'k.fingerprint as key_fingerprint')
        .first()) as Row | undefined;
      return row ? { fingerprint: String(row.key_fingerprint), event: toUsageEvent(row) } : null;
    },

    listUsageEvents(developerId, filter, page) {
      const query = knex('usage_events').where({ developer_id: developerId });
      if (filter.status) query.where({ status: filter.status });
      if (filter.customerId) query.where({ customer_id: filter.customerId });
      if (filter.serviceId) query.where({ service_id: filter.serviceId });
      return pageOf(query, page, toUsageEvent);
    },
  };
}
