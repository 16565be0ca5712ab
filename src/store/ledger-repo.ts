import { sql, type Kysely, type Transaction } from 'kysely';
import { MAX_EXACT_MINOR } from '../domain/money.js';
import type { DB, LedgerEntryType } from './schema.js';

export interface LedgerEntry {
  id: number;
  type: LedgerEntryType;
  amount: number;
  balanceAfter: number;
  orderId: string | null;
  refId: string | null;
  note: string | null;
  /** The deposit (DEP-…) of a deposit or deposit_reversal entry. */
  depositId: string | null;
  createdAt: number;
}

export class LedgerRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async balance(resellerId: string): Promise<number | null> {
    const row = await this.db.selectFrom('resellers').select('balance').where('id', '=', resellerId).executeTakeFirst();
    return row ? Number(row.balance) : null;
  }

  private filtered(resellerId: string, types: LedgerEntryType[] | null, from: number | null, to: number | null) {
    let q = this.db.selectFrom('ledger_entries as l').where('l.reseller_id', '=', resellerId);
    if (types) q = q.where('l.type', 'in', types);
    if (from !== null) q = q.where('l.created_at', '>=', from);
    if (to !== null) q = q.where('l.created_at', '<=', to);
    return q;
  }

  /**
   * Newest first. Unfiltered: ledger_seq is the exact total and the page a seq range on the
   * (reseller_id, seq) index, read in one statement, at any depth. Filtered (type or dates,
   * rarer): the page walks the same index, skipping what the filter drops, and the total is
   * counted.
   */
  async list(f: { resellerId: string; types: LedgerEntryType[] | null; from: number | null; to: number | null; limit: number; offset: number }) {
    if (!f.types && f.from === null && f.to === null) {
      // One statement: the counter and the page below it (see OrderHistoryRepo.list).
      const counter = this.db.selectFrom('resellers').select('ledger_seq').where('id', '=', f.resellerId);
      const rows = await this.db
        .selectFrom('ledger_entries as l')
        .leftJoin('orders as o', 'o.id', 'l.order_id')
        .select(['l.id', 'l.type', 'l.amount', 'l.balance_after', 'l.order_id', 'l.note', 'l.deposit_id', 'l.created_at', 'o.ref_id'])
        .select(counter.as('page_total'))
        .where('l.reseller_id', '=', f.resellerId)
        .where('l.seq', '<=', sql<number>`${counter} - ${f.offset}`)
        .orderBy('l.seq', 'desc')
        .limit(f.limit)
        .execute();
      const total = Number(rows[0] ? rows[0].page_total : ((await counter.executeTakeFirst())?.ledger_seq ?? 0));
      return { entries: rows.map(toEntry), total };
    }
    const base = this.filtered(f.resellerId, f.types, f.from, f.to);
    // Deferred join: pick the page's ids on the (reseller_id, seq) index, then read those rows.
    const pageIds = base.select('l.id').orderBy('l.seq', 'desc').limit(f.limit).offset(f.offset);
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('ledger_entries as l')
        .where('l.id', 'in', pageIds)
        .leftJoin('orders as o', 'o.id', 'l.order_id')
        .select(['l.id', 'l.type', 'l.amount', 'l.balance_after', 'l.order_id', 'l.note', 'l.deposit_id', 'l.created_at', 'o.ref_id'])
        .orderBy('l.seq', 'desc')
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { entries: rows.map(toEntry), total: Number(count.n) };
  }

  /** The entries of one order (its debit and at most one refund), oldest first. */
  async forOrder(orderId: string): Promise<LedgerEntry[]> {
    // By the order's (reseller_id, seq): the ledger has no index on order_id (migration 009).
    const rows = await this.db
      .selectFrom('orders as o')
      .innerJoin('ledger_entries as l', (j) => j.onRef('l.reseller_id', '=', 'o.reseller_id').onRef('l.order_seq', '=', 'o.seq'))
      .select(['l.id', 'l.type', 'l.amount', 'l.balance_after', 'l.order_id', 'l.note', 'l.deposit_id', 'l.created_at', 'o.ref_id'])
      .where('o.id', '=', orderId)
      .orderBy('l.id')
      .execute();
    return rows.map(toEntry);
  }

  /**
   * Operator credit or debit in its own transaction (seed, tests). Returns null when a
   * debit would make the balance negative.
   */
  async adjust(resellerId: string, amount: number, note: string, now: number): Promise<{ balanceAfter: number; entryId: number } | null> {
    return this.db.transaction().execute((trx) => LedgerRepo.adjustIn(trx, resellerId, amount, note, now));
  }

  /**
   * Operator credit or debit inside the caller's transaction, so that the change and what
   * goes with it (the audit line) commit together: a guarded balance update (which takes
   * the entry's per-reseller sequence number) and its ledger entry. Returns null, having
   * written nothing, when a debit would make the balance negative or a credit would take
   * it past MAX_EXACT_MINOR (past it, amounts would no longer be exact).
   */
  static async adjustIn(trx: Transaction<DB>, resellerId: string, amount: number, note: string, now: number): Promise<{ balanceAfter: number; entryId: number } | null> {
    return LedgerRepo.entryIn(trx, { resellerId, amount, note, now, type: amount >= 0 ? 'credit' : 'debit', depositId: null });
  }

  /**
   * A deposit's credit (or, negative, its reversal) inside the caller's transaction, under
   * the same guards as adjustIn. The store's unique (deposit_id, type) refuses a second
   * credit of one deposit: the caller settles the deposit's state in the same transaction,
   * so a duplicate is caught by the state first and by the index in any case.
   */
  static async depositIn(trx: Transaction<DB>, e: { resellerId: string; depositId: string; amount: number; note: string; now: number }): Promise<{ balanceAfter: number; entryId: number } | null> {
    return LedgerRepo.entryIn(trx, { ...e, type: e.amount >= 0 ? 'deposit' : 'deposit_reversal' });
  }

  private static async entryIn(
    trx: Transaction<DB>,
    e: { resellerId: string; amount: number; note: string; now: number; type: 'credit' | 'debit' | 'deposit' | 'deposit_reversal'; depositId: string | null },
  ): Promise<{ balanceAfter: number; entryId: number } | null> {
    const { resellerId, amount, note, now } = e;
    let q = trx.updateTable('resellers').set((eb) => ({ balance: eb('balance', '+', amount), ledger_seq: eb('ledger_seq', '+', 1), updated_at: now })).where('id', '=', resellerId);
    q = amount < 0 ? q.where('balance', '>=', -amount) : q.where('balance', '<=', MAX_EXACT_MINOR - amount);
    const row = await q.returning(['balance', 'ledger_seq']).executeTakeFirst();
    if (!row) return null;
    const balanceAfter = Number(row.balance);
    const entry = await trx
      .insertInto('ledger_entries')
      .values({ reseller_id: resellerId, type: e.type, amount, balance_after: balanceAfter, order_id: null, order_seq: null, deposit_id: e.depositId, note, created_at: now, seq: Number(row.ledger_seq) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { balanceAfter, entryId: Number(entry.id) };
  }
}

function toEntry(r: { id: number; type: LedgerEntryType; amount: number; balance_after: number; order_id: string | null; note: string | null; deposit_id: string | null; created_at: number; ref_id: string | null }): LedgerEntry {
  return {
    id: Number(r.id), type: r.type, amount: Number(r.amount), balanceAfter: Number(r.balance_after), orderId: r.order_id,
    refId: r.ref_id ?? null, note: r.note, depositId: r.deposit_id, createdAt: Number(r.created_at),
  };
}
