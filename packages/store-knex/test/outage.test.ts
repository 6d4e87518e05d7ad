import { createMeter, createMeterHandler, type Meter, MeterError, type MeterHandler } from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knexConfigFromUrl, knexStore, migrate } from '../src/index.js';
import { mysql, type OpenTestDatabase, postgres, type TestDatabase } from './databases.js';
import { knexRawReader } from './raw-reader.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

// The store runs through a TCP proxy that the tests cut and restore; every check of what was
// written goes through a direct connection that the outage does not touch.

const POSTGRES_URL = process.env.METER_TEST_POSTGRES_URL;
const MYSQL_URL = process.env.METER_TEST_MYSQL_URL;

describe.runIf(POSTGRES_URL)('PostgreSQL outage (METER_TEST_POSTGRES_URL)', () => {
  outageTests(postgres(POSTGRES_URL!), 'pg');
});
describe.runIf(MYSQL_URL)('MySQL/MariaDB outage (METER_TEST_MYSQL_URL)', () => {
  outageTests(mysql(MYSQL_URL!), 'mysql');
});

const unavailable = expect.objectContaining({ code: 'store_unavailable' });
/** A usage result that charged now (a replay carries `idempotent: true`). */
const chargedNow = (result: unknown) => {
  expect(result).toMatchObject({ status: 'charged' });
  expect(result).not.toHaveProperty('idempotent');
};

/** Settles a promise and says how long it took, so a hang shows up as a number rather than a timeout. */
async function timed<T>(promise: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const start = performance.now();
  try {
    const value = await promise;
    return { ms: performance.now() - start, value };
  } catch (error) {
    return { ms: performance.now() - start, error };
  }
}

/** Whether a charge on another connection to this database has reached the balance update (and waits there). */
async function chargeWaitsAtBalanceUpdate(knex: Knex, dialect: 'pg' | 'mysql'): Promise<boolean> {
  if (dialect === 'pg') {
    const { rows } = await knex.raw(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query like 'update "balances"%'`,
    );
    return rows[0].n > 0;
  }
  // MariaDB's information_schema.innodb_trx can lag; the process list shows the statement at once.
  const [rows] = await knex.raw(
    "select count(*) as n from information_schema.processlist where db = database() and info like 'update `balances`%'",
  );
  return Number(rows[0].n) > 0;
}

function outageTests(open: OpenTestDatabase, dialect: 'pg' | 'mysql'): void {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let meter: Meter;
  let handler: MeterHandler;
  let developerId: string;
  let customerId: string;
  let apiKey: string;

  const usage = (idempotencyKey: string) =>
    meter.recordUsage(developerId, {
      service: 'api',
      customer: 'alice',
      metricKey: 'calls',
      quantity: 1,
      idempotencyKey,
    });

  /** Everything the charge writes, read directly. */
  async function written() {
    const raw = knexRawReader(db.knex);
    const keys = await db
      .knex('idempotency_keys')
      .where({ developer_id: developerId })
      .orderBy('idempotency_key');
    return {
      balance: await raw.balance(customerId, 'CKB'),
      ledger: await raw.ledgerEntries(customerId),
      usage: await raw.usageEvents(developerId),
      keys: keys.map((k) => [k.idempotency_key, k.status, k.usage_event_id]),
    };
  }
  const invariants = () => knexStore(db.knex, { destroyOnClose: false }).checkInvariants();

  beforeAll(async () => {
    db = await open();
    await migrate(db.knex);
    const target = new URL(db.url);
    proxy = await startTcpProxy({
      host: target.hostname,
      port: Number(target.port || (dialect === 'pg' ? 5432 : 3306)),
    });
    const proxied = new URL(db.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    // The configuration openStore() uses, with knex's connection warnings silenced.
    const quiet = { warn() {}, error() {}, deprecate() {}, debug() {} };
    const store = knexStore(knexFactory({ ...knexConfigFromUrl(proxied.toString()), log: quiet }));
    meter = createMeter({ store, provider: simulatedProvider() });
    handler = createMeterHandler({
      meter,
      jwt: { secret: 'outage-test-jwt-secret-that-is-long-enough' },
      logger: { info() {}, warn() {}, error() {} },
    });

    const dev = await meter.registerDeveloper({
      email: 'ops@example.com',
      password: 'password123',
      name: 'Ops',
    });
    developerId = dev.id;
    const service = await meter.createService(developerId, { name: 'API', slug: 'api' });
    await meter.createPricingRule(developerId, service.id, {
      name: 'Calls',
      metricKey: 'calls',
      unitName: 'call',
      pricingModel: 'fixed_per_request',
      price: '0.01',
    });
    customerId = (await meter.createCustomer(developerId, { externalId: 'alice' })).id;
    const request = await meter.createPaymentRequest(developerId, { customerId, amount: '10' });
    await meter.simulatePaid(developerId, request.id);
    apiKey = (await meter.createApiKey(developerId, { name: 'ingest' })).key;
  });
  afterAll(async () => {
    await proxy?.restore();
    await meter?.close();
    await proxy?.close();
    await db?.destroy();
  });

  it('charges through the proxy', async () => {
    chargedNow(await usage('before'));
  });

  it('server down: every call fails fast with store_unavailable (HTTP 503), nothing is written, then it recovers', async () => {
    const before = await written();
    await proxy.cut('refuse');

    const charge = await timed(usage('during'));
    expect(charge.error).toBeInstanceOf(MeterError);
    expect(charge.error).toEqual(unavailable);
    expect(charge.ms).toBeLessThan(3000);
    const others = await Promise.allSettled([
      meter.store.getDeveloper(developerId),
      meter.store.listCustomers(developerId, { limit: 10 }),
      meter.store.dashboardSummary(developerId, new Date()),
      meter.store.checkInvariants(),
    ]);
    for (const result of others) expect(result).toEqual({ status: 'rejected', reason: unavailable });

    const response = await handler({
      method: 'POST',
      path: '/api/usage-events',
      query: new URLSearchParams(),
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: new TextEncoder().encode(
        JSON.stringify({
          service: 'api',
          customer: 'alice',
          metricKey: 'calls',
          quantity: 1,
          idempotencyKey: 'http',
        }),
      ),
    });
    expect(response.status).toBe(503);
    expect(JSON.parse(response.body!)).toEqual({
      error: { code: 'store_unavailable', message: 'The database is unavailable; try again shortly' },
    });

    expect(await written()).toEqual(before);
    expect(await invariants()).toEqual([]);

    await proxy.restore();
    chargedNow(await usage('during'));
    expect(await usage('during')).toMatchObject({ status: 'charged', idempotent: true });
    const after = await written();
    expect(after.usage.filter((e) => e.idempotencyKey === 'during')).toHaveLength(1);
    expect(after.ledger).toHaveLength(before.ledger.length + 1);
    expect(await invariants()).toEqual([]);
  });

  it('a connection cut in the middle of a charge leaves nothing half-written', async () => {
    const before = await written();
    // Hold the balance row so the charge stops inside its transaction, after claiming its key.
    const lock = await db.knex.transaction();
    await lock('balances').where({ customer_id: customerId }).forUpdate().select('available');
    const charge = timed(usage('cut-mid-charge'));
    await expect.poll(() => chargeWaitsAtBalanceUpdate(db.knex, dialect), { timeout: 5000 }).toBe(true);

    const cutAt = performance.now();
    await proxy.cut('refuse');
    const result = await charge;
    expect(result.error).toEqual(unavailable);
    expect(performance.now() - cutAt).toBeLessThan(3000);
    await lock.commit();
    expect(await written()).toEqual(before);

    await proxy.restore();
    // The same key again: charged exactly once (the cut transaction's claim on it is gone).
    chargedNow(await usage('cut-mid-charge'));
    const after = await written();
    expect(after.usage.filter((e) => e.idempotencyKey === 'cut-mid-charge')).toHaveLength(1);
    expect(after.ledger).toHaveLength(before.ledger.length + 1);
    expect(after.balance?.available).toBe(before.balance!.available - 1_000_000n);
    expect(await invariants()).toEqual([]);
  });

  it('server silent: calls fail within the pool acquire timeout rather than hang, then it recovers', async () => {
    const before = await written();
    await proxy.cut('hang');
    // Let the pool see its dropped connections close, so the call needs a new one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const charge = await timed(usage('silent'));
    expect(charge.error).toEqual(unavailable);
    // knex gives up acquiring after acquireConnectionTimeout (5 s), not its default 60 s.
    expect(charge.ms).toBeGreaterThan(4000);
    expect(charge.ms).toBeLessThan(7000);
    expect(await written()).toEqual(before);

    await proxy.restore();
    const recovered = await timed(usage('silent'));
    chargedNow(recovered.value);
    expect(recovered.ms).toBeLessThan(2000);
    expect(await invariants()).toEqual([]);
  });
}
