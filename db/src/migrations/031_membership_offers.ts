import type { Knex } from 'knex';

// What a membership costs, set by the owner in the console without a deploy (payments/offers.ts):
// one row per change, the newest in force; none: the bff's configuration (MEMBERSHIP_PRICE,
// MEMBERSHIP_PERIOD_DAYS). A trial is a first period at its own price ("2 days for $1.95, then
// $14.99 every 30 days"). Amounts are decimal strings like every amount in this schema.
// A sign-up keeps the terms it was sold on: payment_attempts records them and the subscription
// its recurring period, so a later change never alters what an existing member was promised.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('membership_offers', (t) => {
    t.increments('id');
    t.string('price', 12).notNullable();
    t.integer('period_days').notNullable();
    t.string('trial_price', 12).nullable();
    t.integer('trial_days').nullable();
    t.string('set_by', 80).notNullable();
    t.bigInteger('set_at').notNullable();
  });
  await knex.schema.alterTable('payment_attempts', (t) => {
    // The first period (the trial's, or the membership's) and what follows it; NULL before 031 or for a VOD.
    t.integer('period_days').nullable();
    t.string('recurring_price', 12).nullable();
    t.integer('recurring_period_days').nullable();
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    // The period a renewal adds (NULL: the configured one, as before 031).
    t.integer('period_days').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscriptions', (t) => t.dropColumn('period_days'));
  await knex.schema.alterTable('payment_attempts', (t) => {
    t.dropColumn('period_days');
    t.dropColumn('recurring_price');
    t.dropColumn('recurring_period_days');
  });
  await knex.schema.dropTable('membership_offers');
}
