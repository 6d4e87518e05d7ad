import type { NewOutboxDelivery } from '@meter/core';
import type { Knex } from 'knex';

/** Writes a webhook delivery row inside the caller's transaction (the transactional outbox), due at once. */
export function insertOutboxRow(
  trx: Knex.Transaction,
  developerId: string,
  delivery: NewOutboxDelivery,
  eventId: string,
  now: number,
): Promise<unknown> {
  return trx('webhook_deliveries').insert({
    id: delivery.deliveryId,
    developer_id: developerId,
    service_id: delivery.serviceId,
    event_type: delivery.eventType,
    event_id: eventId,
    payload: delivery.payload,
    status: 'pending',
    attempt_count: 0,
    last_status_code: null,
    last_error: null,
    next_attempt_at: now,
    lease_token: null,
    lease_until: null,
    created_at: now,
    updated_at: now,
  });
}
