import { randomBytes } from 'node:crypto';
import { createKnexFromUrl } from '@meter/store-knex';

/** Shannons per word: the demo's word-counter charges 0.01 CKB per word. */
export const WORD_PRICE = 1_000_000n;

export interface UsageRequest {
  /** Position in the send order. */
  seq: number;
  /** The process (0, 1 or 2) it is sent to. */
  target: number;
  customer: number;
  quantity: number;
  key: string;
  /** 0 for the first send of the key, 1 and 2 for the replays. */
  occurrence: number;
}

export interface Plan {
  requests: UsageRequest[];
  /** Shannons each customer would spend if every unique key were charged. */
  demand: bigint[];
}

/** mulberry32: a small seeded generator, so a failing run can be repeated with METER_SCALE_SEED. */
export function random(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/**
 * `total` usage requests for `customers` customers: `duplicates` of them replay a key sent a
 * little earlier (so often still in flight), always to another process than the key's
 * earlier sends, with the same payload. Originals go round-robin over the processes.
 */
export function makePlan(opts: {
  seed: number;
  customers: number;
  total: number;
  duplicates: number;
  processes: number;
}): Plan {
  const rand = random(opts.seed);
  const unique = opts.total - opts.duplicates;
  const order: Omit<UsageRequest, 'seq' | 'target' | 'occurrence'>[] = [];
  const demand = Array.from({ length: opts.customers }, () => 0n);
  for (let i = 0; i < unique; i++) {
    const customer = i % opts.customers;
    const quantity = 1 + rand(20);
    demand[customer]! += BigInt(quantity) * WORD_PRICE;
    order.push({ customer, quantity, key: `scale-${opts.seed}-${i}` });
  }
  const sends = new Map<string, number>();
  for (let d = 0; d < opts.duplicates; ) {
    const from = rand(order.length);
    const original = order[from]!;
    const count = sends.get(original.key) ?? 1;
    if (count >= opts.processes) continue;
    sends.set(original.key, count + 1);
    order.splice(Math.min(order.length, from + 1 + rand(120)), 0, { ...original });
    d++;
  }
  const firstTarget = new Map<string, number>();
  const seen = new Map<string, number>();
  let next = 0;
  const requests = order.map((r, seq): UsageRequest => {
    const occurrence = seen.get(r.key) ?? 0;
    seen.set(r.key, occurrence + 1);
    if (occurrence === 0) firstTarget.set(r.key, next++ % opts.processes);
    const target = (firstTarget.get(r.key)! + occurrence) % opts.processes;
    return { ...r, seq, target, occurrence };
  });
  return { requests, demand };
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Creates `meter_scale_<random>` on the server behind `adminUrl`; drop() removes it. */
export async function createScratchDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const name = `meter_scale_${randomBytes(5).toString('hex')}`;
  const postgres = /^postgres(ql)?:/i.test(adminUrl);
  const admin = createKnexFromUrl(adminUrl);
  try {
    await admin.raw(`create database ${name}`);
  } catch (err) {
    await admin.destroy();
    throw err;
  }
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  return {
    name,
    url: target.toString(),
    async drop() {
      try {
        await admin.raw(postgres ? `drop database ${name} with (force)` : `drop database ${name}`);
      } finally {
        await admin.destroy();
      }
    },
  };
}

/** p-th percentile (0..100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
