import type SQLite from 'better-sqlite3';
import { fulfilPayload, JOB_KINDS } from './job-kinds.js';
import type { NewOrder } from './orders-repo.js';
import { isUniqueViolation } from './unique-violation.js';

export interface GroupOrder {
  o: NewOrder;
  now: number;
}

/**
 * One order's outcome in a group, as plain data (it crosses from the order writer thread):
 * placed, a duplicate ref_id, a short balance (with the balance), or another failure.
 */
export type OrderAnswer =
  | { e?: undefined }
  | { e: 'dup' }
  | { e: 'balance'; balance: number }
  | { e: 'error'; message: string; code?: string };

export const REF_LOOKUP_SQL = 'select id from orders where reseller_id = ? and ref_id = ?';

/**
 * The order transaction (OrdersRepo's placeIn) as prepared SQLite statements, same
 * statements, same order, same outcomes, for a whole group in one transaction: each order
 * in a nested transaction (a savepoint), so a failed order rolls back to it and the others
 * commit. The group's own failure (its commit) throws: nothing of it committed.
 */
export function sqliteOrderGroup(sqlite: SQLite.Database): (batch: GroupOrder[]) => OrderAnswer[] {
  const debit = sqlite.prepare(
    'update resellers set balance = balance - ?, order_seq = order_seq + 1, ledger_seq = ledger_seq + 1, updated_at = ? where id = ? and balance >= ? returning balance, order_seq, ledger_seq',
  );
  const dup = sqlite.prepare(REF_LOOKUP_SQL);
  const balance = sqlite.prepare('select balance from resellers where id = ?');
  const insertOrder = sqlite.prepare(
    `insert into orders (id, reseller_id, ref_id, product_code, product_name, category_slug, target, zone, price, status, serial_number, failure_code, failure_reason, created_at, completed_at, updated_at, checker_verified, seq)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'processing', null, null, null, ?, null, ?, ?, ?)`,
  );
  const insertLedger = sqlite.prepare(
    `insert into ledger_entries (reseller_id, type, amount, balance_after, order_id, note, created_at, seq, order_seq) values (?, 'order_debit', ?, ?, ?, null, ?, ?, ?)`,
  );
  const insertJob = sqlite.prepare(
    `insert into jobs (kind, payload, run_at, attempts, locked_until, locked_by, last_error, created_at, group_key) values (?, ?, ?, 0, null, null, null, ?, null)`,
  );
  const one = sqlite.transaction((o: NewOrder, now: number): OrderAnswer => {
    const d = debit.get(o.price, now, o.resellerId, o.price) as { balance: number; order_seq: number; ledger_seq: number } | undefined;
    if (!d) {
      // A duplicate is a duplicate even when the balance is short too.
      if (dup.get(o.resellerId, o.refId)) return { e: 'dup' };
      const current = balance.get(o.resellerId) as { balance: number } | undefined;
      return { e: 'balance', balance: Number(current?.balance ?? 0) };
    }
    insertOrder.run(o.id, o.resellerId, o.refId, o.productCode, o.productName, o.categorySlug, o.target, o.zone, o.price, now, now, o.checkerVerified ? 1 : 0, d.order_seq);
    insertLedger.run(o.resellerId, -o.price, d.balance, o.id, now, d.ledger_seq, d.order_seq);
    insertJob.run(JOB_KINDS.fulfilOrder, JSON.stringify(fulfilPayload(o.id, o.requestId)), now, now);
    return {};
  });
  const attempt = (item: GroupOrder): OrderAnswer => {
    try {
      return one(item.o, item.now);
    } catch (e) {
      if (isUniqueViolation(e)) return { e: 'dup' };
      const err = e as { message?: string; code?: string };
      return { e: 'error', message: String(err.message ?? e), code: err.code };
    }
  };
  const group = sqlite.transaction((batch: GroupOrder[]): OrderAnswer[] => batch.map(attempt));
  // A lone order needs no savepoint: its own transaction is the unit.
  return (batch) => (batch.length === 1 ? [attempt(batch[0]!)] : group(batch));
}
