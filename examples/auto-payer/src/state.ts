import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * What the auto-payer has done, per payment request, in a JSON file. It is written (atomically:
 * a temporary file renamed over the old one) BEFORE send_payment is called, so a restart never
 * pays a request twice.
 */

export type PaymentState = 'sending' | 'sent' | 'paid' | 'failed' | 'closed';

export interface PaymentRecord {
  requestId: string;
  paymentHash: string | null;
  amount: string;
  state: PaymentState;
  /** How many times send_payment was started for it. */
  attempts: number;
  note: string | null;
  updatedAt: string;
}

export interface PaymentStateFile {
  readonly path: string;
  get(requestId: string): PaymentRecord | undefined;
  all(): PaymentRecord[];
  /** Stores the record and writes the file before returning. */
  put(record: Omit<PaymentRecord, 'updatedAt'>): PaymentRecord;
}

export function openPaymentState(path: string): PaymentStateFile {
  const records = new Map<string, PaymentRecord>();
  if (existsSync(path)) {
    let parsed: { payments?: PaymentRecord[] };
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      // Refuse to start rather than forget what was paid.
      throw new Error(
        `The state file ${path} is not readable JSON (${(err as Error).message}); fix or move it`,
      );
    }
    for (const r of parsed.payments ?? []) records.set(r.requestId, r);
  } else {
    mkdirSync(dirname(path), { recursive: true });
  }

  function save(): void {
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ version: 1, payments: [...records.values()] }, null, 2)}\n`, {
      flush: true,
    });
    renameSync(tmp, path);
  }

  return {
    path,
    get: (id) => records.get(id),
    all: () => [...records.values()],
    put(record) {
      const stored = { ...record, updatedAt: new Date().toISOString() };
      records.set(record.requestId, stored);
      save();
      return stored;
    },
  };
}
