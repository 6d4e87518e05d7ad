import type { MeterWebhookEvent } from './events.js';

export type AcceptOutcome = 'accepted' | 'duplicate';

/** Where a receiver durably records the deliveries it has accepted, keyed by delivery id. */
export interface AcceptedEventStore {
  /**
   * Records the event of a delivery. MUST return only once the record would survive a crash
   * (a receiver answers 200 on the strength of it), MUST return 'duplicate' and record
   * nothing when the delivery id was accepted before, and MUST answer 'accepted' to exactly
   * one of several concurrent calls with the same id. MUST throw when it cannot record; the
   * receiver then answers 503 and Meter tries again later.
   */
  accept(deliveryId: string, event: MeterWebhookEvent): Promise<AcceptOutcome>;
}

export interface AcceptedEvent {
  deliveryId: string;
  /** When this receiver accepted it (ISO 8601). */
  acceptedAt: string;
  event: MeterWebhookEvent;
}

export interface MemoryEventStore extends AcceptedEventStore {
  has(deliveryId: string): boolean;
  /** Accepted events, oldest first. */
  list(): AcceptedEvent[];
}

/** Keeps accepted events in process memory: for tests and demos, not durable. */
export function memoryEventStore(): MemoryEventStore {
  const events = new Map<string, AcceptedEvent>();
  return {
    async accept(deliveryId, event) {
      if (events.has(deliveryId)) return 'duplicate';
      events.set(deliveryId, { deliveryId, acceptedAt: new Date().toISOString(), event });
      return 'accepted';
    },
    has: (deliveryId) => events.has(deliveryId),
    list: () => [...events.values()],
  };
}
