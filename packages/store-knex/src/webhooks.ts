import { type MeterStore, notFound, type WebhookAttempt } from '@meter/core';
import { pageOf, type StoreContext } from './context.js';
import { type Row, toWebhookAttempt, toWebhookDelivery } from './rows.js';

type WebhookStore = Pick<MeterStore, 'listWebhookDeliveries' | 'getWebhookDelivery' | 'recordWebhookAttempt'>;

/** The webhook outbox: deliveries (written by chargeUsage) and their attempts. */
export function webhookStore(ctx: StoreContext): WebhookStore {
  const { knex } = ctx;

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

    recordWebhookAttempt(deliveryId, attempt, status) {
      return ctx.transact(async (trx) => {
        const at = attempt.attemptedAt.getTime();
        const changed = await trx('webhook_deliveries')
          .where({ id: deliveryId })
          .update({
            status,
            attempt_count: trx.raw('attempt_count + 1'),
            last_status_code: attempt.statusCode,
            last_error: attempt.error,
            ...(status === 'pending' ? {} : { next_attempt_at: null }),
            updated_at: at,
          });
        if (changed === 0) throw notFound('Webhook delivery');
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
      });
    },
  };
}
