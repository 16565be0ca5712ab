import { sql, type Kysely } from 'kysely';

/**
 * Bank-transfer deposits (issue 36): every bank mutation the platform has seen (from a
 * statement import or a mutation-service webhook), stored once by its identity per bank
 * account so a line imported twice or a mutation delivered twice is matched once; the
 * mutation service's id of a bank account; each reseller's low-balance threshold.
 */
export const bankDeposits = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('bank_mutations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
      /** The bank's or mutation service's id, else a hash of the line (see domain/bank-statement.ts). */
      .addColumn('identity', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull()) // statement | webhook
      .addColumn('booked_on', 'text', (c) => c.notNull()) // the date as the bank wrote it
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull()) // minor units, > 0
      .addColumn('direction', 'text', (c) => c.notNull()) // CR | DB
      .addColumn('state', 'text', (c) => c.notNull()) // matched | review | unmatched | assigned | handled | debit
      .addColumn('deposit_id', 'text', (c) => c.references('deposits.id'))
      .addColumn('actor', 'text')
      .addColumn('note', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('bank_mutations_identity', ['bank_account_id', 'identity'])
      .execute();
    await db.schema.createIndex('bank_mutations_state_created').on('bank_mutations').columns(['state', 'created_at']).execute();
    await db.schema.alterTable('bank_accounts').addColumn('mutation_bank_id', 'text').execute();
    await db.schema.alterTable('resellers').addColumn('low_balance_threshold', 'bigint').execute();
    // A mutation service names the account by its own id: one account per id.
    await sql`create unique index bank_accounts_mutation_bank_id on bank_accounts (mutation_bank_id) where mutation_bank_id is not null`.execute(db);
  },
};
