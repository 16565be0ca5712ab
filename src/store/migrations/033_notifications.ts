import type { Kysely } from 'kysely';

/**
 * Notifications (issue 40): the outbox of messages to people, each written in the
 * transaction of the event that causes it and unique per (event, recipient) by its
 * `dedupe_key`; password-reset links (stored as the token's sha256 only); and each
 * person's language, which picks the templates of what they are sent.
 */
export const notifications = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('outbox_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
      .addColumn('template', 'text', (c) => c.notNull())
      .addColumn('recipient_kind', 'text', (c) => c.notNull()) // operator | reseller
      .addColumn('recipient_id', 'text')
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body_text', 'text', (c) => c.notNull())
      .addColumn('body_html', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull()) // pending | sent | kept | failed
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('sent_at', 'bigint')
      .execute();
    await db.schema.createIndex('outbox_messages_created').on('outbox_messages').columns(['created_at', 'id']).execute();

    await db.schema
      .createTable('password_resets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('subject_kind', 'text', (c) => c.notNull()) // operator | reseller
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('password_resets_subject').on('password_resets').columns(['subject_kind', 'subject_id']).execute();

    await db.schema.alterTable('resellers').addColumn('language', 'text', (c) => c.notNull().defaultTo('en')).execute();
    await db.schema.alterTable('operators').addColumn('language', 'text', (c) => c.notNull().defaultTo('en')).execute();
  },
};
