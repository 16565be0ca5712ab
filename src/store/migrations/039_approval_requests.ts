import type { Kysely } from 'kysely';

/**
 * Issue 37, four-eyes: an operator's large credit, debit or manual refund, and every change
 * of a supplier's credentials, waits as an approval request until another operator decides.
 * The audit log gains approved_by, so the applied action names both people. States
 * (pending, approved, rejected, failed, cancelled) are the domain's rule (domain/four-eyes.ts),
 * not a CHECK.
 */
export const approvalRequests = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('approval_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull()) // wallet.credit | wallet.debit | order.refund | supplier.credentials
      .addColumn('target_kind', 'text', (c) => c.notNull()) // reseller | order | supplier
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint') // minor units; null for supplier credentials
      .addColumn('note', 'text')
      .addColumn('payload_enc', 'text') // sealed (SecretBox): the new supplier credentials; never shown
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('requested_by', 'text', (c) => c.notNull().references('operators.id'))
      .addColumn('requested_at', 'bigint', (c) => c.notNull())
      .addColumn('decided_by', 'text', (c) => c.references('operators.id'))
      .addColumn('decided_at', 'bigint')
      .addColumn('reason', 'text') // why rejected, or why it could not be applied (failed)
      .addColumn('result', 'text') // JSON: what the applied action produced (ledger entry id, ...)
      .execute();
    await db.schema.createIndex('approval_requests_state').on('approval_requests').columns(['state', 'requested_at']).execute();
    await db.schema.alterTable('audit_log').addColumn('approved_by', 'text').execute();
  },
};
