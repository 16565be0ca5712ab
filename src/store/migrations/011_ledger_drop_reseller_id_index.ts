import type { Kysely } from 'kysely';

/**
 * Drops `ledger_reseller_id` (reseller_id, id). Since migration 006 every ledger row has
 * its per-reseller `seq`, and the unfiltered wallet history is ordered by it; the filtered
 * history now walks `ledger_reseller_seq` (reseller_id, seq) too, so both list a
 * reseller's entries in one order (the same as by id: every writer takes the seq and
 * inserts the entry in the transaction that holds the reseller's row). The dropped index
 * was one more entry written for every debit, refund and credit.
 */
export const ledgerDropResellerIdIndex = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('ledger_reseller_id').ifExists().execute();
  },
};
