import type { Knex } from 'knex';
import { detectDialect, mysqlCollation } from '../dialect.js';

/**
 * The initial schema. Money and counters are BIGINT minor units, timestamps BIGINT epoch
 * milliseconds, JSON is TEXT. Ids are time-ordered strings, so `(developer_id, id)` indexes
 * serve every newest-first list. Usage events, ledger entries and payment requests have no
 * foreign key to customers: a deleted customer's history stays.
 */
export async function up(knex: Knex): Promise<void> {
  const dialect = detectDialect(knex);
  const collation = dialect === 'mysql' ? await mysqlCollation(knex) : null;
  // Ids sort byte-wise on every database ("C" collation on PostgreSQL), so cursors follow creation order.
  const id = (t: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder =>
    dialect === 'pg' ? t.specificType(name, 'varchar(40) collate "C"') : t.string(name, 40);

  const create = (name: string, build: (t: Knex.CreateTableBuilder) => void) =>
    knex.schema.createTable(name, (t) => {
      if (collation) {
        t.engine('InnoDB');
        t.charset('utf8mb4');
        t.collate(collation);
      }
      build(t);
    });

  await create('developers', (t) => {
    id(t, 'id').primary();
    t.string('email', 320).notNullable().unique();
    t.string('name', 255).notNullable();
    t.text('password_hash').notNullable();
    t.bigInteger('created_at').notNullable();
  });

  await create('api_keys', (t) => {
    id(t, 'id').primary();
    id(t, 'developer_id').notNullable().references('id').inTable('developers');
    t.string('name', 255).notNullable();
    t.string('key_prefix', 64).notNullable();
    t.string('key_hash', 128).notNullable().unique();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_used_at').nullable();
    t.bigInteger('revoked_at').nullable();
    t.index(['developer_id', 'id']);
  });

  await create('services', (t) => {
    id(t, 'id').primary();
    id(t, 'developer_id').notNullable().references('id').inTable('developers');
    t.string('name', 255).notNullable();
    t.string('slug', 100).notNullable();
    t.text('description').nullable();
    t.text('webhook_url').nullable();
    t.string('webhook_secret', 512).notNullable();
    t.string('default_asset', 16).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['developer_id', 'slug']);
    t.index(['developer_id', 'id']);
  });

  await create('pricing_rules', (t) => {
    id(t, 'id').primary();
    id(t, 'developer_id').notNullable();
    id(t, 'service_id').notNullable().references('id').inTable('services').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.string('metric_key', 128).notNullable();
    t.string('unit_name', 128).notNullable();
    t.string('pricing_model', 32).notNullable();
    t.string('price', 64).notNullable();
    t.string('asset', 16).notNullable();
    // `service_id|metric_key|asset` while active, NULL otherwise: one active rule per
    // (service, metric, asset), enforced by the database on all three (no partial indexes in MySQL).
    t.string('active_key', 200).nullable().unique();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['service_id', 'id']);
  });

  await create('customers', (t) => {
    id(t, 'id').primary();
    id(t, 'developer_id').notNullable().references('id').inTable('developers');
    t.string('external_id', 255).notNullable();
    t.string('name', 255).nullable();
    t.string('email', 320).nullable();
    t.text('metadata', 'mediumtext').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['developer_id', 'external_id']);
    t.index(['developer_id', 'id']);
  });

  await create('balances', (t) => {
    id(t, 'customer_id').notNullable().references('id').inTable('customers');
    t.string('asset', 16).notNullable();
    id(t, 'developer_id').notNullable();
    t.bigInteger('available').notNullable();
    t.bigInteger('total_funded').notNullable();
    t.bigInteger('total_spent').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.primary(['customer_id', 'asset']);
    t.index(['developer_id']);
    t.check('available >= 0 and total_funded >= 0 and total_spent >= 0', {}, 'balances_non_negative');
  });

  await create('payment_requests', (t) => {
    id(t, 'id').primary();
    id(t, 'developer_id').notNullable();
    id(t, 'customer_id').notNullable();
    t.bigInteger('amount').notNullable();
    t.string('asset', 16).notNullable();
    t.string('status', 16).notNullable();
    t.string('provider', 16).notNullable();
    t.text('payment_uri').notNullable();
    t.string('payment_hash', 255).nullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('paid_at').nullable();
    t.text('metadata', 'mediumtext').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['developer_id', 'id']);
    t.index(['developer_id', 'customer_id', 'id']);
    t.index(['developer_id', 'status', 'id']);
  });

  await create('idempotency_keys', (t) => {
    id(t, 'developer_id').notNullable();
    t.string('idempotency_key', 255).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.string('status', 16).notNullable();
    id(t, 'usage_event_id').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.primary(['developer_id', 'idempotency_key']);
  });

  await create('usage_events', (t) => {
    id(t, 'id').primary();
    id(t, 'developer_id').notNullable();
    id(t, 'service_id').notNullable();
    t.string('service_slug', 100).notNullable();
    id(t, 'customer_id').notNullable();
    t.string('customer_external_id', 255).notNullable();
    id(t, 'pricing_rule_id').notNullable();
    t.string('metric_key', 128).notNullable();
    // String(quantity): a JS number round-trips through its shortest decimal form exactly.
    t.string('quantity', 40).notNullable();
    t.bigInteger('amount').notNullable();
    t.string('asset', 16).notNullable();
    t.string('status', 32).notNullable();
    t.string('idempotency_key', 255).notNullable();
    t.bigInteger('balance_after').notNullable();
    t.text('metadata', 'mediumtext').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['developer_id', 'id']);
    t.index(['developer_id', 'customer_id', 'id']);
    t.index(['developer_id', 'service_id', 'id']);
    t.index(['developer_id', 'status', 'id']);
  });

  await create('ledger_entries', (t) => {
    id(t, 'id').primary();
    id(t, 'developer_id').notNullable();
    id(t, 'customer_id').notNullable();
    t.string('asset', 16).notNullable();
    t.string('type', 16).notNullable();
    t.string('direction', 8).notNullable();
    t.bigInteger('amount').notNullable();
    t.bigInteger('balance_after').notNullable();
    t.string('reference_type', 32).notNullable();
    id(t, 'reference_id').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['developer_id', 'id']);
    t.index(['developer_id', 'customer_id', 'id']);
    t.index(['customer_id', 'asset']);
    // A payment request is credited once and a usage event debited once, whatever the code does.
    t.unique(['reference_type', 'reference_id']);
  });

  await create('webhook_deliveries', (t) => {
    id(t, 'id').primary();
    id(t, 'developer_id').notNullable();
    id(t, 'service_id').notNullable();
    t.string('event_type', 64).notNullable();
    id(t, 'event_id').notNullable();
    t.text('payload', 'mediumtext').notNullable();
    t.string('status', 16).notNullable();
    t.integer('attempt_count').notNullable();
    t.integer('last_status_code').nullable();
    t.text('last_error').nullable();
    t.bigInteger('next_attempt_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['developer_id', 'id']);
    t.index(['developer_id', 'status', 'id']);
    t.index(['status', 'next_attempt_at']);
  });

  await create('webhook_attempts', (t) => {
    id(t, 'id').primary();
    id(t, 'delivery_id').notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
    t.bigInteger('attempted_at').notNullable();
    t.text('url').notNullable();
    t.integer('status_code').nullable();
    t.integer('latency_ms').notNullable();
    t.text('error').nullable();
    t.text('response_excerpt').nullable();
    t.index(['delivery_id', 'attempted_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'webhook_attempts',
    'webhook_deliveries',
    'ledger_entries',
    'usage_events',
    'idempotency_keys',
    'payment_requests',
    'balances',
    'customers',
    'pricing_rules',
    'services',
    'api_keys',
    'developers',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
