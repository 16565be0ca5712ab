import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db.js';
import { SQLITE_LEDGER_SEQ_FILL } from './006_read_paths.js';

const LEDGER_TYPES = `'order_debit', 'order_refund', 'credit', 'debit', 'deposit', 'deposit_reversal'`;

/**
 * Money in (issue 36): the bank accounts resellers transfer to, and one deposits table for
 * both channels (a bank-transfer ticket with its unique code, or a gateway payment). The
 * ledger gains two entry types, `deposit` and `deposit_reversal`, and a deposit_id; a
 * unique (deposit_id, type) makes "a deposit is credited at most once, reversed at most
 * once" a property of the store, whatever arrives twice.
 *
 * The open-ticket amount is unique per bank account (a partial unique index), so two
 * tickets can never match one transfer. SQLite cannot alter a column's CHECK: the ledger
 * is rebuilt as migration 009 did, its rows, ids, index and trigger kept.
 */
export function deposits(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('bank_accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bank', 'text', (c) => c.notNull())
        .addColumn('number', 'text', (c) => c.notNull())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        /** JSON: the column mapping of this bank's statement export; null until saved. */
        .addColumn('statement_mapping', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('deposits')
        .addColumn('id', 'text', (c) => c.primaryKey()) // DEP-…, shown to people
        .addColumn('reseller_id', 'text', (c) => c.notNull().references('resellers.id'))
        .addColumn('channel', 'text', (c) => c.notNull()) // bank | gateway
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull()) // credited to the wallet
        .addColumn('payable', 'bigint', (c) => c.notNull()) // what the reseller pays
        .addColumn('unique_code', 'integer')
        .addColumn('fee', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('bank_account_id', 'text', (c) => c.references('bank_accounts.id'))
        .addColumn('sender_name', 'text')
        .addColumn('method', 'text')
        .addColumn('gateway_order_id', 'text', (c) => c.unique())
        .addColumn('gateway_url', 'text')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('paid_at', 'bigint')
        .addColumn('matched_by', 'text') // operator | statement | webhook | gateway
        .addColumn('reference', 'text') // the bank's or gateway's reference of the payment
        .addColumn('actor', 'text') // who marked it paid, cancelled, …
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('deposits_reseller_created').on('deposits').columns(['reseller_id', 'created_at']).execute();
      await db.schema.createIndex('deposits_state_expires').on('deposits').columns(['state', 'expires_at']).execute();
      await sql`create unique index deposits_open_payable on deposits (bank_account_id, payable) where state = 'open' and bank_account_id is not null`.execute(db);

      if (dialect === 'postgres') {
        await sql`alter table ledger_entries drop constraint if exists ledger_entries_type_check`.execute(db);
        await sql.raw(`alter table ledger_entries add constraint ledger_entries_type_check check ("type" in (${LEDGER_TYPES}))`).execute(db);
        await sql`alter table ledger_entries add column deposit_id text references deposits (id)`.execute(db);
      } else {
        await sql.raw(`create table ledger_entries_new (
          "id" integer primary key autoincrement,
          "reseller_id" text not null references "resellers" ("id"),
          "type" text not null check ("type" in (${LEDGER_TYPES})),
          "amount" bigint not null,
          "balance_after" bigint not null check (balance_after >= 0),
          "order_id" text references "orders" ("id"),
          "note" text,
          "created_at" bigint not null,
          "seq" bigint,
          "order_seq" bigint,
          "deposit_id" text references "deposits" ("id"),
          constraint "ledger_order_seq_with_order" check ((order_id is null) = (order_seq is null)),
          constraint "ledger_one_per_order_and_type" unique ("reseller_id", "order_seq", "type"))`).execute(db);
        await sql`insert into ledger_entries_new (id, reseller_id, type, amount, balance_after, order_id, note, created_at, seq, order_seq)
                  select id, reseller_id, type, amount, balance_after, order_id, note, created_at, seq, order_seq from ledger_entries`.execute(db);
        await sql`drop table ledger_entries`.execute(db);
        await sql`alter table ledger_entries_new rename to ledger_entries`.execute(db);
        await sql`create unique index ledger_reseller_seq on ledger_entries (reseller_id, seq)`.execute(db);
        await sql.raw(SQLITE_LEDGER_SEQ_FILL).execute(db);
      }
      await sql`create unique index ledger_one_per_deposit_and_type on ledger_entries (deposit_id, type) where deposit_id is not null`.execute(db);
    },
  };
}
