import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { formatAmount, parseAmount } from '@meter/core';
import { createKnexFromUrl, knexStore } from '@meter/store-knex';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpawnedServer, spawnDemoServer } from '../support/spawn-server.js';
import {
  createScratchDatabase,
  makePlan,
  percentile,
  pool,
  type ScratchDatabase,
  type UsageRequest,
} from './load.js';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

const PROCESSES = 3;
const CUSTOMERS = 20;
const REQUESTS = 2000;
const DUPLICATES = 200;
const IN_FLIGHT = 64;
const SEED = Number(process.env.METER_SCALE_SEED) || randomBytes(4).readUInt32BE();

interface Sent {
  request: UsageRequest;
  status: number;
  body: any;
  ms: number;
}

/**
 * Three API processes on one database take 2,000 concurrent usage requests for 20 customers
 * whose balances cover only part of them, with replayed keys sent to other processes. What
 * the database holds afterwards is checked with plain SQL, then with `meter doctor`.
 */
function manyProcesses(label: string, adminUrl: string) {
  let db: ScratchDatabase | undefined;
  let servers: SpawnedServer[] = [];
  let knex: Knex | undefined;

  beforeAll(async () => {
    db = await createScratchDatabase(adminUrl);
    // All three start at once: each runs the migrations and seeds the demo data concurrently.
    const env = { DATABASE_URL: db.url, JWT_SECRET: randomBytes(32).toString('hex') };
    const started = await Promise.allSettled(Array.from({ length: PROCESSES }, () => spawnDemoServer(env)));
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    knex = createKnexFromUrl(db.url);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await knex?.destroy();
    await db?.drop();
  }, 30_000);

  it('charges each key at most once and keeps every balance equal to its ledger', async () => {
    const api = async (
      i: number,
      method: string,
      path: string,
      auth: Record<string, string>,
      body?: unknown,
    ) => {
      const res = await fetch(servers[i % PROCESSES]!.baseUrl + path, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };

    const login = await api(
      0,
      'POST',
      '/api/auth/login',
      {},
      {
        email: 'demo@meter.local',
        password: 'demo-password',
      },
    );
    expect(login.status).toBe(200);
    const jwt = { authorization: `Bearer ${login.body.token}` };
    const developerId: string = login.body.developer.id;
    // Issued by process 1, used on every process: tokens and keys live in the database and the shared secret.
    const apiKey = await api(1, 'POST', '/api/api-keys', jwt, { name: 'scale' });
    expect(apiKey.status).toBe(201);
    const usageAuth = { 'x-api-key': apiKey.body.key as string };

    const plan = makePlan({
      seed: SEED,
      customers: CUSTOMERS,
      total: REQUESTS,
      duplicates: DUPLICATES,
      processes: PROCESSES,
    });
    // Customer i is funded for 15% .. 85% of what its unique keys would cost.
    const funded = plan.demand.map(
      (d, i) => (d * BigInt(15 + Math.round((70 * i) / (CUSTOMERS - 1)))) / 100n,
    );
    const customerIds = await Promise.all(
      funded.map(async (amount, i) => {
        const customer = await api(i, 'POST', '/api/customers', jwt, { externalId: `scale-${i}` });
        expect(customer.status).toBe(201);
        const pr = await api(i + 1, 'POST', '/api/payment-requests', jwt, {
          customerId: customer.body.id,
          amount: formatAmount(amount, 'CKB'),
        });
        expect(pr.status).toBe(201);
        // simulate-paid on two processes at once: the balance is credited once.
        const paid = await Promise.all(
          [i, i + 1].map((p) => api(p, 'POST', `/api/payment-requests/${pr.body.id}/simulate-paid`, jwt)),
        );
        expect(paid.map((r) => r.status)).toEqual([200, 200]);
        expect(paid.filter((r) => r.body.verification.alreadyPaid === false)).toHaveLength(1);
        return customer.body.id as string;
      }),
    );

    // The checker runs during the load too: it reads one snapshot, so a live database shows no
    // mismatch that is only a charge committing between two of its reads.
    const store = knexStore(knex!, { destroyOnClose: false });
    let loading = true;
    let liveChecks = 0;
    const liveViolations: unknown[] = [];
    const checking = (async () => {
      while (loading) {
        liveViolations.push(...(await store.checkInvariants()));
        liveChecks++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const started = performance.now();
    const sent = await pool(plan.requests, IN_FLIGHT, async (request): Promise<Sent> => {
      const t0 = performance.now();
      const res = await api(request.target, 'POST', '/api/usage-events', usageAuth, {
        service: 'word-counter',
        customer: `scale-${request.customer}`,
        metricKey: 'words',
        quantity: request.quantity,
        idempotencyKey: request.key,
      });
      return { request, ...res, ms: performance.now() - t0 };
    });
    const elapsed = performance.now() - started;
    loading = false;
    await checking;
    expect(liveViolations).toEqual([]);

    // Every request was answered, none with an error.
    expect(sent.filter((s) => s.status !== 200).map((s) => [s.status, s.body])).toEqual([]);
    const charged = sent.filter((s) => s.body.status === 'charged');
    const refused = sent.filter((s) => s.body.status === 'insufficient_balance');
    expect(charged.length + refused.length).toBe(REQUESTS);

    // Replays: one first charge per key, and every charged answer for a key names the same event.
    const chargedByKey = new Map<string, Sent[]>();
    for (const s of charged) chargedByKey.set(s.request.key, [...(chargedByKey.get(s.request.key) ?? []), s]);
    for (const [key, answers] of chargedByKey) {
      expect(new Set(answers.map((a) => a.body.usageEventId)).size, key).toBe(1);
      expect(
        answers.filter((a) => a.body.idempotent !== true),
        key,
      ).toHaveLength(1);
    }

    // What the database holds, read with plain SQL.
    const events = (await knex!('usage_events')
      .where({ developer_id: developerId, status: 'charged' })
      .select('id', 'idempotency_key', 'customer_external_id', 'amount')) as Record<string, unknown>[];
    const perKey = new Map<string, number>();
    for (const e of events)
      perKey.set(String(e.idempotency_key), (perKey.get(String(e.idempotency_key)) ?? 0) + 1);
    expect([...perKey].filter(([, n]) => n > 1)).toEqual([]);
    const eventById = new Map(events.map((e) => [String(e.id), e]));
    for (const [key, [answer]] of chargedByKey) {
      const event = eventById.get(answer!.body.usageEventId);
      expect(event, `charged event for ${key}`).toBeDefined();
      expect(BigInt(String(event!.amount))).toBe(parseAmount(answer!.body.amount, 'CKB'));
      expect(event!.idempotency_key).toBe(key);
      expect(event!.customer_external_id).toBe(`scale-${answer!.request.customer}`);
    }
    // ...and no charge the client was not told about.
    expect(events.length).toBe(chargedByKey.size);
    // Each charge wrote its webhook outbox row in the same transaction: one per charged event.
    const deliveries = (await knex!('webhook_deliveries')
      .where({ developer_id: developerId, event_type: 'usage.charged' })
      .select('event_id')) as { event_id: string }[];
    expect(deliveries.map((d) => d.event_id).sort()).toEqual([...eventById.keys()].sort());

    const balances = (await knex!('balances').where({ developer_id: developerId })) as Record<
      string,
      unknown
    >[];
    const ledger = (await knex!('ledger_entries').where({ developer_id: developerId })) as Record<
      string,
      unknown
    >[];
    customerIds.forEach((customerId, i) => {
      const spent = events
        .filter((e) => e.customer_external_id === `scale-${i}`)
        .reduce((sum, e) => sum + BigInt(String(e.amount)), 0n);
      const balance = balances.find((b) => b.customer_id === customerId && b.asset === 'CKB')!;
      expect({
        available: BigInt(String(balance.available)),
        funded: BigInt(String(balance.total_funded)),
        spent: BigInt(String(balance.total_spent)),
      }).toEqual({ available: funded[i]! - spent, funded: funded[i]!, spent });
      const entries = ledger.filter((l) => l.customer_id === customerId);
      const net = entries.reduce(
        (sum, l) => sum + (l.direction === 'credit' ? 1n : -1n) * BigInt(String(l.amount)),
        0n,
      );
      expect(net).toBe(funded[i]! - spent);
      expect(entries.filter((l) => l.direction === 'credit')).toHaveLength(1);
      // Partial cover: every customer was both charged and refused.
      expect(charged.some((s) => s.request.customer === i)).toBe(true);
      expect(refused.some((s) => s.request.customer === i)).toBe(true);
    });

    // The invariant checker, in process and as the `meter doctor` command.
    expect(await store.checkInvariants()).toEqual([]);
    const doctor = await run(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'packages/store-knex/src/cli.ts', 'doctor'],
      { cwd: root, env: { ...process.env, DATABASE_URL: db!.url } },
    );
    expect(doctor.stdout).toMatch(/^ok: 21 balances checked\n$/);

    const latencies = sent.map((s) => s.ms);
    console.log(
      `[scale ${label}] seed ${SEED}: ${REQUESTS} requests (${DUPLICATES} replays) over ${PROCESSES} processes, ` +
        `${IN_FLIGHT} in flight, in ${Math.round(elapsed)} ms (${Math.round(REQUESTS / (elapsed / 1000))} req/s); ` +
        `charged ${charged.length} (${chargedByKey.size} keys, ${charged.length - chargedByKey.size} replays), ` +
        `refused ${refused.length}; latency p50 ${Math.round(percentile(latencies, 50))} ms, ` +
        `p99 ${Math.round(percentile(latencies, 99))} ms; ${liveChecks} invariant checks during the load`,
    );
  }, 120_000);
}

const POSTGRES_URL = process.env.METER_TEST_POSTGRES_URL;
const MYSQL_URL = process.env.METER_TEST_MYSQL_URL;

describe.runIf(POSTGRES_URL)('many API processes on one PostgreSQL (METER_TEST_POSTGRES_URL)', () => {
  manyProcesses('postgres', POSTGRES_URL!);
});
describe.runIf(MYSQL_URL)('many API processes on one MySQL/MariaDB (METER_TEST_MYSQL_URL)', () => {
  manyProcesses('mysql', MYSQL_URL!);
});
