import type { LedgerDirection, PaymentStatus, UsageStatus, WebhookDeliveryStatus } from '@meter/core';
import type { StoreRawReader } from '@meter/core/testing';
import type { Knex } from 'knex';

type Row = Record<string, unknown>;

/**
 * An integer as the driver returned it, read without the store's own mapping: a bigint, a
 * string of digits, or a number only while it is exact.
 */
function exact(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new TypeError(`not an exact integer: ${typeof value} ${String(value)}`);
}

const dateOrNull = (value: unknown): Date | null => (value == null ? null : new Date(Number(exact(value))));

/** The conformance suite's backdoor onto the knex store's tables. */
export function knexRawReader(knex: Knex): StoreRawReader {
  return {
    async balance(customerId, asset) {
      const row = (await knex('balances').where({ customer_id: customerId, asset }).first()) as
        | Row
        | undefined;
      if (!row) return null;
      return {
        available: exact(row.available),
        totalFunded: exact(row.total_funded),
        totalSpent: exact(row.total_spent),
      };
    },
    async ledgerEntries(customerId) {
      const rows = (await knex('ledger_entries').where({ customer_id: customerId }).orderBy('id')) as Row[];
      return rows.map((r) => ({
        id: String(r.id),
        direction: String(r.direction) as LedgerDirection,
        amount: exact(r.amount),
        balanceAfter: exact(r.balance_after),
        referenceType: String(r.reference_type),
        referenceId: String(r.reference_id),
      }));
    },
    async usageEvents(developerId) {
      const rows = (await knex('usage_events').where({ developer_id: developerId }).orderBy('id')) as Row[];
      return rows.map((r) => ({
        id: String(r.id),
        customerId: String(r.customer_id),
        status: String(r.status) as UsageStatus,
        amount: exact(r.amount),
        idempotencyKey: String(r.idempotency_key),
      }));
    },
    async webhookDeliveries(developerId) {
      const rows = (await knex('webhook_deliveries')
        .where({ developer_id: developerId })
        .orderBy('id')) as Row[];
      return rows.map((r) => ({
        id: String(r.id),
        eventId: String(r.event_id),
        status: String(r.status) as WebhookDeliveryStatus,
        payload: String(r.payload),
      }));
    },
    async paymentRequest(id) {
      const row = (await knex('payment_requests').where({ id }).first()) as Row | undefined;
      return row ? { status: String(row.status) as PaymentStatus, amount: exact(row.amount) } : null;
    },
    async apiKey(id) {
      const row = (await knex('api_keys').where({ id }).first()) as Row | undefined;
      return row ? { lastUsedAt: dateOrNull(row.last_used_at), revokedAt: dateOrNull(row.revoked_at) } : null;
    },
    async pricingRuleCount(serviceId) {
      const [row] = (await knex('pricing_rules').where({ service_id: serviceId }).count({ n: '*' })) as Row[];
      return Number(exact(row?.n));
    },
    async corruptBalance(customerId, asset, available) {
      await knex('balances')
        .where({ customer_id: customerId, asset })
        .update({ available: knex.raw(`(${available.toString()})`) });
    },
    async deleteLedgerEntry(id) {
      await knex('ledger_entries').where({ id }).del();
    },
  };
}
