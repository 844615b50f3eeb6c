import type { Knex } from 'knex';

// Members, what they bought, payment attempts, provider webhooks and sessions. Times are unix
// milliseconds in bigint columns so MySQL, MariaDB and SQLite compare them the same way.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('members', (t) => {
    t.increments('id').primary();
    t.string('username', 15).notNullable().unique();
    t.string('password_hash', 255).notNullable();
    t.string('email', 254).notNullable();
    t.bigInteger('created_at').notNullable();
    // Chargeback, refund or void: the media service refuses this member's links and tokens.
    t.bigInteger('revoked_at').nullable();
  });
  await knex.schema.createTable('subscriptions', (t) => {
    t.increments('id').primary();
    t.integer('member_id').unsigned().notNullable().references('id').inTable('members').onDelete('CASCADE');
    t.string('kind', 12).notNullable(); // membership | vod
    t.integer('vod_id').unsigned().nullable().references('id').inTable('vods').onDelete('SET NULL');
    // A string: the provider's 18-digit ids exceed JavaScript's exact integers.
    t.string('provider_subscription_id', 32).nullable();
    t.string('status', 12).notNullable(); // active | cancelled | expired | revoked
    t.bigInteger('paid_until').nullable(); // null: no end (a bought VOD)
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['member_id', 'kind']);
    t.index(['provider_subscription_id']);
  });
  await knex.schema.createTable('payment_attempts', (t) => {
    t.increments('id').primary();
    t.string('payment_token', 64).notNullable().unique();
    t.string('kind', 12).notNullable();
    t.integer('vod_id').unsigned().nullable();
    t.integer('member_id').unsigned().nullable();
    t.string('username', 15).notNullable();
    // Kept so a charge settled later (webhook, reconciliation) can still create the member.
    t.string('password_hash', 255).nullable();
    t.string('email', 254).notNullable();
    t.string('amount', 12).notNullable();
    t.integer('currency_code').notNullable();
    t.string('status', 12).notNullable(); // pending | approved | declined | failed | unknown
    // 'u:<username>' or 'v:<member>:<vod>' while a charge for it may succeed; unique, so two
    // submissions (a double click) cannot both charge. Cleared on decline or failure.
    t.string('reservation', 48).nullable().unique();
    t.string('provider_subscription_id', 32).nullable();
    t.string('decline_text', 200).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['username', 'status']);
    t.index(['status', 'created_at']);
    t.index(['provider_subscription_id']);
  });
  await knex.schema.createTable('payment_handles', (t) => {
    t.string('handle_hash', 64).primary();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
    // The payment token it was spent on: a concurrent repeat of that call waits for its outcome.
    t.string('payment_token', 64).nullable();
    t.index(['expires_at']);
  });
  await knex.schema.createTable('webhook_events', (t) => {
    t.increments('id').primary();
    t.string('transaction_id', 80).notNullable();
    t.string('event_type', 40).notNullable();
    t.string('subscription_id', 32).nullable();
    t.text('payload').notNullable();
    t.bigInteger('received_at').notNullable();
    t.string('outcome', 40).nullable();
    t.unique(['transaction_id', 'event_type']);
  });
  await knex.schema.createTable('member_sessions', (t) => {
    t.string('id_hash', 64).primary();
    t.integer('member_id').unsigned().notNullable().references('id').inTable('members').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.index(['member_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['member_sessions', 'webhook_events', 'payment_handles', 'payment_attempts', 'subscriptions', 'members']) {
    await knex.schema.dropTableIfExists(table);
  }
}
