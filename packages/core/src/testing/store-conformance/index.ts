import { afterAll, beforeAll, describe } from 'vitest';
import type { MeterStore } from '../../ports/meter-store.js';
import { accountTests } from './accounts.js';
import { chargedUsageTests } from './charged-usage.js';
import { chargeTests } from './charges.js';
import { customerTests } from './customers.js';
import { createFixtures, type Fixtures } from './fixtures.js';
import { invariantTests } from './invariants.js';
import { listTests } from './lists.js';
import { paymentTests } from './payments.js';
import type { StoreRawReader } from './raw-reader.js';
import { webhookTests } from './webhooks.js';

export type {
  RawBalance,
  RawLedgerEntry,
  RawUsageEvent,
  RawWebhookDelivery,
  StoreRawReader,
} from './raw-reader.js';

/** A store to test, on fresh storage of its own, with a raw reader onto that storage. */
export interface StoreUnderTest {
  store: MeterStore;
  raw: StoreRawReader;
  /** Releases the store and removes the storage. */
  teardown(): Promise<void>;
}

export interface StoreConformanceOptions {
  /** The describe block's name, e.g. "knexStore on PostgreSQL". */
  name: string;
  /** Called once before the suite. The storage may be shared by all of its tests. */
  setup(): Promise<StoreUnderTest>;
}

/**
 * Registers the MeterStore conformance suite with vitest: every store operation and every
 * guarantee the port states with MUST (racing charges never overdraw and charge a key once,
 * racing credits credit once, tenant isolation, exact 64-bit amounts, ...). Writes are
 * checked through `raw`, not through the store's own reads. Call it from a test file, once
 * per storage backend.
 */
export function runStoreConformance(options: StoreConformanceOptions): void {
  describe(options.name, () => {
    let underTest: StoreUnderTest | undefined;
    let fixtures: Fixtures | undefined;
    const f = (): Fixtures => {
      if (!fixtures) throw new Error(`${options.name}: setup() did not complete`);
      return fixtures;
    };

    beforeAll(async () => {
      underTest = await options.setup();
      fixtures = createFixtures(underTest.store, underTest.raw);
    });
    afterAll(async () => {
      await underTest?.teardown();
    });

    accountTests(f);
    customerTests(f);
    chargeTests(f);
    chargedUsageTests(f);
    paymentTests(f);
    listTests(f);
    webhookTests(f);
    invariantTests(f);
  });
}
