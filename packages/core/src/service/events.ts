import type { Balance, PaymentRequest, UsageEvent } from '../domain/types.js';

export interface MeterEvents {
  'usage.charged': { event: UsageEvent };
  'balance.funded': { paymentRequest: PaymentRequest; balance: Balance };
}

export type MeterEventName = keyof MeterEvents;
export type MeterListener<E extends MeterEventName> = (payload: MeterEvents[E]) => void;

/** A small typed emitter; a throwing listener is logged, never allowed to break the operation. */
export function createEmitter(onListenerError: (err: unknown) => void) {
  const listeners = new Map<MeterEventName, Set<(payload: never) => void>>();
  return {
    on<E extends MeterEventName>(name: E, listener: MeterListener<E>): () => void {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    emit<E extends MeterEventName>(name: E, payload: MeterEvents[E]): void {
      for (const listener of listeners.get(name) ?? []) {
        try {
          (listener as MeterListener<E>)(payload);
        } catch (err) {
          onListenerError(err);
        }
      }
    },
  };
}

export type Emitter = ReturnType<typeof createEmitter>;
