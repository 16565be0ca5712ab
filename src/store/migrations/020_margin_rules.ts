import type { Kysely } from 'kysely';

/**
 * Issue 27, margins and never below cost: margin rules (one per category or per catalog;
 * the per-tier margins as JSON, amounts in minor units), each supplier's choice of what a
 * sync does with a route whose cost reached a price of its product, and the operator's
 * attention items (things other than orders that a person should look at, e.g. a price
 * that a sync repriced or a route it took out of service).
 */
export const marginRules = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('margin_rules')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('scope_kind', 'text', (c) => c.notNull()) // 'category' | 'catalog'
      .addColumn('scope_id', 'text', (c) => c.notNull()) // category slug or catalog id
      .addColumn('step', 'bigint', (c) => c.notNull())
      .addColumn('tiers', 'text', (c) => c.notNull()) // {"gold": {"percent_bp": 500, "fixed": 0}, ...}
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('margin_rules_scope', ['scope_kind', 'scope_id'])
      .execute();
    await db.schema.alterTable('suppliers').addColumn('below_cost_policy', 'text', (c) => c.notNull().defaultTo('disable_route')).execute();
    await db.schema
      .createTable('attention_items')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('target_kind', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('details', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('resolved_at', 'bigint')
      .addColumn('resolved_by', 'text')
      .execute();
    await db.schema.createIndex('attention_items_open').on('attention_items').columns(['resolved_at', 'created_at']).execute();
  },
};
