import type { MeterStore, WebhookAttempt } from '@meter/core';
import type { Knex } from 'knex';
import { pageOf, type StoreContext } from './context.js';
import { type Row, toMeterEvent, toWebhookAttempt, toWebhookDelivery } from './rows.js';

type WebhookStore = Pick<
  MeterStore,
  | 'listWebhookDeliveries'
  | 'getWebhookDelivery'
  | 'claimWebhookDeliveries'
  | 'recordWebhookAttempt'
  | 'requeueFailedDeliveries'
  | 'listEvents'
>;

/** The webhook outbox: deliveries (written by chargeUsage) and their attempts. */
export function webhookStore(ctx: StoreContext): WebhookStore {
  const { knex, dialect } = ctx;

  /** Attempts of several deliveries in one query, oldest first. */
  async function attemptsOf(deliveryIds: string[]): Promise<Map<string, WebhookAttempt[]>> {
    const byDelivery = new Map<string, WebhookAttempt[]>(deliveryIds.map((id) => [id, []]));
    if (deliveryIds.length === 0) return byDelivery;
    const rows = (await knex('webhook_attempts')
      .whereIn('delivery_id', deliveryIds)
      .orderBy([{ column: 'attempted_at' }, { column: 'id' }])) as Row[];
    for (const row of rows) byDelivery.get(String(row.delivery_id))?.push(toWebhookAttempt(row));
    return byDelivery;
  }

  return {
    async listWebhookDeliveries(developerId, filter, page) {
      const query = knex('webhook_deliveries').where({ developer_id: developerId });
      if (filter.status) query.where({ status: filter.status });
      const result = await pageOf(query, page, (row) => row);
      const attempts = await attemptsOf(result.items.map((row) => String(row.id)));
      return {
        items: result.items.map((row) => toWebhookDelivery(row, attempts.get(String(row.id)) ?? [])),
        nextCursor: result.nextCursor,
      };
    },

    async getWebhookDelivery(developerId, id) {
      const row = (await knex('webhook_deliveries').where({ id, developer_id: developerId }).first()) as
        | Row
        | undefined;
      if (!row) return null;
      return toWebhookDelivery(row, (await attemptsOf([id])).get(id) ?? []);
    },

    /**
     * Leases are the guard: a row is claimed only while its lease is free or expired, checked
     * again in the UPDATE. On PostgreSQL and MySQL the candidate rows are read FOR UPDATE SKIP
     * LOCKED, so racing dispatchers take different rows instead of queueing on the same ones.
     */
    async claimWebhookDeliveries(input) {
      const now = input.now.getTime();
      const leaseFree = (q: Knex.QueryBuilder) =>
        q.whereNull('lease_until').orWhere('lease_until', '<=', now);
      const ids = await ctx.transact(async (trx) => {
        const candidates = trx('webhook_deliveries').select('id').where(leaseFree);
        if (input.developerId) candidates.where({ developer_id: input.developerId });
        if (input.ids) candidates.whereIn('id', input.ids);
        if (!input.includeFinal)
          candidates.where({ status: 'pending' }).andWhere('next_attempt_at', '<=', now);
        candidates.orderBy('id').limit(input.limit);
        if (dialect !== 'sqlite') candidates.forUpdate().skipLocked();
        const found = ((await candidates) as Row[]).map((r) => String(r.id));
        if (found.length === 0) return [];
        await trx('webhook_deliveries')
          .whereIn('id', found)
          .where(leaseFree)
          .update({ lease_token: input.leaseToken, lease_until: now + input.leaseMs });
        return found;
      });
      if (ids.length === 0) return [];
      const rows = (await knex('webhook_deliveries')
        .whereIn('id', ids)
        .where({ lease_token: input.leaseToken })
        .orderBy('id')) as Row[];
      return rows.map((row) => toWebhookDelivery(row, []));
    },

    recordWebhookAttempt(deliveryId, leaseToken, attempt, outcome) {
      return ctx.transact(async (trx) => {
        const at = attempt.attemptedAt.getTime();
        const changed = await trx('webhook_deliveries')
          .where({ id: deliveryId, lease_token: leaseToken })
          .update({
            status: outcome.status,
            attempt_count: trx.raw('attempt_count + 1'),
            last_status_code: attempt.statusCode,
            last_error: attempt.error,
            next_attempt_at: outcome.status === 'pending' ? (outcome.nextAttemptAt?.getTime() ?? at) : null,
            lease_token: null,
            lease_until: null,
            updated_at: at,
          });
        if (changed === 0) return false;
        await trx('webhook_attempts').insert({
          id: attempt.id,
          delivery_id: deliveryId,
          attempted_at: at,
          url: attempt.url,
          status_code: attempt.statusCode,
          latency_ms: Math.round(attempt.latencyMs),
          error: attempt.error,
          response_excerpt: attempt.responseExcerpt,
        });
        return true;
      });
    },

    async requeueFailedDeliveries(developerId, serviceId, since, now) {
      return (
        knex('webhook_deliveries')
          .where({ developer_id: developerId, service_id: serviceId, status: 'failed' })
          .andWhere('created_at', '>=', since.getTime())
          // Not while a manual retry holds it: that attempt's result must still be recorded.
          .andWhere((q) => q.whereNull('lease_until').orWhere('lease_until', '<=', now.getTime()))
          .update({
            status: 'pending',
            next_attempt_at: now.getTime(),
            lease_token: null,
            lease_until: null,
            updated_at: now.getTime(),
          })
      );
    },

    listEvents(developerId, filter, page) {
      const query = knex('meter_events').where({ developer_id: developerId });
      if (filter.type) query.where({ type: filter.type });
      return pageOf(query, page, toMeterEvent);
    },
  };
}
