import type { Knex } from 'knex';

// "New from your models" by e-mail (opt-in): a member who follows models (saved_items of type
// 'model') and switched it on in /account gets one mail when items of theirs are released.
// - release_mail_subscriptions: who opted in, and since when (nothing released before is mailed).
// - release_mail_sent: which item each member was already told about, so no item is mailed twice
//   (pruned after the release window has long passed).
// - release_mail_links: the one-click unsubscribe link of each mail (RFC 8058); like every link
//   token here, only its SHA-256 is kept.
// - saved_items (content_type, content_id): a model's followers, for the digest's per-item query.
// - mail_outbox.list_unsubscribe: the List-Unsubscribe address the sender puts in that mail's headers.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('release_mail_subscriptions', (t) => {
    t.integer('member_id').unsigned().primary().references('id').inTable('members').onDelete('CASCADE');
    t.bigInteger('subscribed_at').notNullable();
  });
  await knex.schema.createTable('release_mail_sent', (t) => {
    t.integer('member_id').unsigned().notNullable().references('id').inTable('members').onDelete('CASCADE');
    t.string('content_type', 8).notNullable();
    t.integer('content_id').unsigned().notNullable();
    t.bigInteger('sent_at').notNullable();
    t.primary(['member_id', 'content_type', 'content_id']);
    t.index(['sent_at']);
  });
  await knex.schema.createTable('release_mail_links', (t) => {
    t.string('token_hash', 64).primary();
    t.integer('member_id').unsigned().notNullable().references('id').inTable('members').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.index(['created_at']);
  });
  await knex.schema.alterTable('saved_items', (t) => {
    t.index(['content_type', 'content_id', 'member_id'], 'saved_items_content_index');
  });
  await knex.schema.alterTable('mail_outbox', (t) => {
    t.string('list_unsubscribe', 300).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('mail_outbox', (t) => {
    t.dropColumn('list_unsubscribe');
  });
  await knex.schema.alterTable('saved_items', (t) => {
    t.dropIndex(['content_type', 'content_id', 'member_id'], 'saved_items_content_index');
  });
  await knex.schema.dropTable('release_mail_links');
  await knex.schema.dropTable('release_mail_sent');
  await knex.schema.dropTable('release_mail_subscriptions');
}
