import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db.js';

/** The first schema. Works on SQLite and PostgreSQL; only the auto-increment id differs. */
export function initial(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const serialId = (t: any) =>
        dialect === 'postgres'
          ? t.addColumn('id', 'bigserial', (c: any) => c.primaryKey())
          : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement());

      await db.schema
        .createTable('resellers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('tier', 'text', (c) => c.notNull().check(sqlIn('tier', ['gold', 'platinum', 'diamond'])))
        .addColumn('status', 'text', (c) => c.notNull().check(sqlIn('status', ['pending', 'active', 'suspended'])))
        // The wallet balance; the ledger is its proof. Never negative, by constraint.
        .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0).check(sqlRaw('balance >= 0')))
        .addColumn('callback_url', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('reseller_id', 'text', (c) => c.notNull().references('resellers.id'))
        .addColumn('api_key', 'text', (c) => c.notNull().unique())
        .addColumn('secret_enc', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('api_keys_reseller').on('api_keys').column('reseller_id').execute();

      await db.schema
        .createTable('ip_whitelist')
        .addColumn('reseller_id', 'text', (c) => c.notNull().references('resellers.id'))
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('ip_whitelist_pk', ['reseller_id', 'ip'])
        .execute();

      await db.schema
        .createTable('categories')
        .addColumn('slug', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull().check(sqlIn('type', ['game', 'voucher'])))
        .addColumn('form', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('checker_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('products')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('category_slug', 'text', (c) => c.notNull().references('categories.slug'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sqlIn('kind', ['instant', 'voucher'])))
        .addColumn('limit_gated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('products_category').on('products').columns(['category_slug', 'sort_order']).execute();

      await db.schema
        .createTable('catalogs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('catalog_prices')
        .addColumn('catalog_id', 'text', (c) => c.notNull().references('catalogs.id'))
        .addColumn('product_code', 'text', (c) => c.notNull().references('products.code'))
        .addColumn('tier', 'text', (c) => c.notNull().check(sqlIn('tier', ['gold', 'platinum', 'diamond'])))
        .addColumn('price', 'bigint', (c) => c.notNull().check(sqlRaw('price >= 0')))
        .addPrimaryKeyConstraint('catalog_prices_pk', ['catalog_id', 'product_code', 'tier'])
        .execute();
      await db.schema.createIndex('catalog_prices_product').on('catalog_prices').columns(['product_code', 'tier']).execute();

      await db.schema
        .createTable('reseller_catalogs')
        .addColumn('reseller_id', 'text', (c) => c.notNull().references('resellers.id'))
        .addColumn('catalog_id', 'text', (c) => c.notNull().references('catalogs.id'))
        .addPrimaryKeyConstraint('reseller_catalogs_pk', ['reseller_id', 'catalog_id'])
        .execute();

      await db.schema
        .createTable('suppliers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('adapter', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sqlIn('status', ['active', 'maintenance'])))
        .addColumn('credentials_enc', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('product_routes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('product_code', 'text', (c) => c.notNull().references('products.code'))
        .addColumn('supplier_id', 'text', (c) => c.notNull().references('suppliers.id'))
        .addColumn('supplier_sku', 'text', (c) => c.notNull())
        .addColumn('cost', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('product_routes_unique', ['product_code', 'supplier_id', 'supplier_sku'])
        .execute();

      await db.schema
        .createTable('orders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('reseller_id', 'text', (c) => c.notNull().references('resellers.id'))
        .addColumn('ref_id', 'text', (c) => c.notNull())
        .addColumn('product_code', 'text', (c) => c.notNull())
        .addColumn('product_name', 'text', (c) => c.notNull())
        .addColumn('category_slug', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('zone', 'text')
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sqlIn('status', ['processing', 'success', 'failed', 'refunded'])))
        .addColumn('serial_number', 'text')
        .addColumn('failure_code', 'text')
        .addColumn('failure_reason', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('completed_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        // ref_id is the reseller's idempotency key: concurrent duplicates race on this index.
        .addUniqueConstraint('orders_reseller_ref', ['reseller_id', 'ref_id'])
        .execute();
      await db.schema.createIndex('orders_reseller_created').on('orders').columns(['reseller_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('orders_reseller_status_created').on('orders').columns(['reseller_id', 'status', 'created_at', 'id']).execute();

      await serialId(db.schema.createTable('ledger_entries'))
        .addColumn('reseller_id', 'text', (c: any) => c.notNull().references('resellers.id'))
        .addColumn('type', 'text', (c: any) => c.notNull().check(sqlIn('type', ['order_debit', 'order_refund', 'credit', 'debit'])))
        .addColumn('amount', 'bigint', (c: any) => c.notNull())
        .addColumn('balance_after', 'bigint', (c: any) => c.notNull().check(sqlRaw('balance_after >= 0')))
        .addColumn('order_id', 'text', (c: any) => c.references('orders.id'))
        .addColumn('note', 'text')
        .addColumn('created_at', 'bigint', (c: any) => c.notNull())
        // One debit and at most one refund per order, enforced by the store, not by hope.
        .addUniqueConstraint('ledger_one_per_order_and_type', ['order_id', 'type'])
        .execute();
      await db.schema.createIndex('ledger_reseller_id').on('ledger_entries').columns(['reseller_id', 'id']).execute();

      await serialId(db.schema.createTable('jobs'))
        .addColumn('kind', 'text', (c: any) => c.notNull())
        .addColumn('payload', 'text', (c: any) => c.notNull())
        .addColumn('run_at', 'bigint', (c: any) => c.notNull())
        .addColumn('attempts', 'integer', (c: any) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'bigint')
        .addColumn('locked_by', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c: any) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_due').on('jobs').columns(['run_at']).execute();
    },
  };
}

const sqlIn = (col: string, values: string[]) => sql`${sql.ref(col)} in (${sql.join(values.map((v) => sql.lit(v)))})`;
const sqlRaw = (text: string) => sql.raw(text);
