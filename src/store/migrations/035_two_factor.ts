import type { Kysely } from 'kysely';

/**
 * Two-factor sign-in, devices and sign-in history (issue 37, items 2 and 4), for operators
 * and resellers alike (subject_kind as in `sessions`).
 * - `two_factor`: the TOTP secret (sealed with the SecretBox), enabled_at null while the
 *   enrolment waits for its first code, and the last accepted time step (no code twice).
 * - `two_factor_recovery_codes`: sha256 of each single-use code, used_at once used.
 * - `devices`: a browser's device cookie (sha256 of its random token) per person;
 *   `two_factor_until` is set while "remember this device" lasts (at most 30 days).
 * - `sign_ins`: the sign-in history; sessions get a public id, their device and last use.
 */
export const twoFactor = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('two_factor')
      .addColumn('subject_kind', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('secret_enc', 'text', (c) => c.notNull())
      .addColumn('enabled_at', 'bigint')
      .addColumn('last_step', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('two_factor_pk', ['subject_kind', 'subject_id'])
      .execute();

    await db.schema
      .createTable('two_factor_recovery_codes')
      .addColumn('subject_kind', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addPrimaryKeyConstraint('two_factor_recovery_codes_pk', ['subject_kind', 'subject_id', 'code_hash'])
      .execute();

    await db.schema
      .createTable('devices')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('subject_kind', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('two_factor_until', 'bigint')
      .execute();
    await db.schema.createIndex('devices_subject').on('devices').columns(['subject_kind', 'subject_id']).execute();

    await db.schema
      .createTable('sign_ins')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('subject_kind', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text', (c) => c.notNull())
      .addColumn('new_device', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sign_ins_subject').on('sign_ins').columns(['subject_kind', 'subject_id', 'created_at']).execute();

    // Sessions opened before this migration have no id and show as "earlier session".
    await db.schema.alterTable('sessions').addColumn('id', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('last_used_at', 'bigint').execute();
    await db.schema.createIndex('sessions_id').on('sessions').column('id').unique().execute();
  },
};
