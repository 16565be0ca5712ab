import type { Kysely } from 'kysely';

/**
 * The payment gateway (issue 36, Midtrans Snap): its settings (environment, sealed server
 * key, client key, payment expiry), the methods resellers may pay with (each with its
 * bounds and fee rule), and every notification the gateway sent, raw, with what we made of
 * it (signature, status confirmation, outcome), for the operator. Rules live in the domain
 * (src/domain/payment-methods.ts), so no CHECK constraints here.
 */
export const paymentGateway = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('gateway_settings')
      .addColumn('id', 'text', (c) => c.primaryKey()) // 'midtrans'
      .addColumn('environment', 'text', (c) => c.notNull()) // sandbox | production
      .addColumn('server_key_sealed', 'text') // SecretBox; null until set
      .addColumn('client_key', 'text')
      .addColumn('expiry_minutes', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('payment_methods')
      .addColumn('code', 'text', (c) => c.primaryKey()) // qris, bca_va, gopay, …
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('min_amount', 'bigint', (c) => c.notNull())
      .addColumn('max_amount', 'bigint', (c) => c.notNull())
      .addColumn('fee_fixed', 'bigint', (c) => c.notNull())
      .addColumn('fee_bps', 'integer', (c) => c.notNull())
      .addColumn('fee_mode', 'text', (c) => c.notNull()) // pass | absorb
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('gateway_notifications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('order_id', 'text')
      .addColumn('deposit_id', 'text', (c) => c.references('deposits.id'))
      .addColumn('transaction_status', 'text')
      .addColumn('signature_valid', 'integer', (c) => c.notNull())
      /** The status API's transaction_status when we asked (null: not asked or no answer). */
      .addColumn('confirmed_status', 'text')
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('gateway_notifications_deposit').on('gateway_notifications').columns(['deposit_id', 'received_at']).execute();
    await db.schema.createIndex('gateway_notifications_received').on('gateway_notifications').columns(['received_at']).execute();
  },
};
