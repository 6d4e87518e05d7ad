import { describe, expect, it } from 'vitest';

const postgres = process.env.METER_TEST_POSTGRES_URL;
const mysql = process.env.METER_TEST_MYSQL_URL;

if (!postgres || !mysql) {
  console.warn(
    `\n[meter] ${[
      !postgres && 'PostgreSQL (METER_TEST_POSTGRES_URL)',
      !mysql && 'MySQL/MariaDB (METER_TEST_MYSQL_URL)',
    ]
      .filter(Boolean)
      .join(' and ')} suites are SKIPPED: set the URL(s) to run them. CI sets both.\n`,
  );
}

// CI sets METER_REQUIRE_DATABASES so that a missing database URL fails the run instead of skipping suites.
describe.runIf(process.env.METER_REQUIRE_DATABASES === '1')('CI runs every database suite', () => {
  it('has both database URLs', () => {
    expect(postgres, 'METER_TEST_POSTGRES_URL').toBeTruthy();
    expect(mysql, 'METER_TEST_MYSQL_URL').toBeTruthy();
  });
});
