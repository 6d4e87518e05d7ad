import type { Knex } from 'knex';
import { detectDialect, mysqlCollation } from '../dialect.js';

/**
 * Dependable webhook delivery: a lease on each delivery (so one dispatcher attempts it at a
 * time, and a dispatcher that dies mid-attempt loses its claim when the lease ends), the
 * events a service subscribes to, and stored events (balance.funded).
 */
export async function up(knex: Knex): Promise<void> {
  const dialect = detectDialect(knex);
  const collation = dialect === 'mysql' ? await mysqlCollation(knex) : null;
  const id = (t: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder =>
    dialect === 'pg' ? t.specificType(name, 'varchar(40) collate "C"') : t.string(name, 40);

  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.string('lease_token', 40).nullable();
    t.bigInteger('lease_until').nullable();
  });
  // A comma-separated list of event types; usage.charged is what every service had before.
  await knex.schema.alterTable('services', (t) => {
    t.string('webhook_events', 255).notNullable().defaultTo('usage.charged');
  });
  await knex.schema.createTable('meter_events', (t) => {
    if (collation) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate(collation);
    }
    id(t, 'id').primary();
    id(t, 'developer_id').notNullable();
    t.string('type', 64).notNullable();
    id(t, 'subject_id').notNullable();
    t.text('payload').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['developer_id', 'id']);
    t.index(['developer_id', 'type', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('meter_events');
  await knex.schema.alterTable('services', (t) => {
    t.dropColumn('webhook_events');
  });
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('lease_token');
    t.dropColumn('lease_until');
  });
}
