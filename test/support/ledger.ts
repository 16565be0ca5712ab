import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/store/schema.js';

/**
 * The ledger invariants, checked from the store itself: for every reseller the balance
 * equals the sum of its entries and is never negative, each entry's balance_after is the
 * running sum, and no order has more than one debit or refund.
 */
export async function ledgerConsistent(db: Kysely<DB>) {
  const resellers = await db.selectFrom('resellers').select(['id', 'balance']).execute();
  for (const r of resellers) {
    const entries = await db.selectFrom('ledger_entries').select(['amount', 'balance_after']).where('reseller_id', '=', r.id).orderBy('id').execute();
    let running = 0;
    for (const e of entries) {
      running += Number(e.amount);
      expect(Number(e.balance_after)).toBe(running);
      expect(running).toBeGreaterThanOrEqual(0);
    }
    expect(Number(r.balance)).toBe(running);
  }
  const perOrder = await db
    .selectFrom('ledger_entries')
    .select(['order_id', 'type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('order_id', 'is not', null)
    .groupBy(['order_id', 'type'])
    .execute();
  for (const row of perOrder) expect(Number(row.n)).toBe(1);
}
