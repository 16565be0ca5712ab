import { Migrator, sql, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Database } from './db.js';
import { initial } from './migrations/001_initial.js';
import { fulfilment } from './migrations/002_fulfilment.js';
import { callbacks } from './migrations/003_callbacks.js';
import { accounts } from './migrations/004_accounts.js';
import { jobGroups } from './migrations/005_job_groups.js';
import { readPaths } from './migrations/006_read_paths.js';
import { orderGroups } from './migrations/007_order_groups.js';
import { hourlyOrderCounts } from './migrations/008_hourly_order_counts.js';
import { ledgerOrderSeq } from './migrations/009_ledger_order_seq.js';
import { cacheVersionNotify } from './migrations/010_cache_version_notify.js';
import { ledgerDropResellerIdIndex } from './migrations/011_ledger_drop_reseller_id_index.js';
import { orderCountsAllRow } from './migrations/012_order_counts_all_row.js';
import { orderCountShards } from './migrations/013_order_counts_shards.js';
import { idempotencyKeys } from './migrations/014_idempotency_keys.js';
import { operatorGaps } from './migrations/016_operator_gaps.js';
import { apiErrors } from './migrations/017_api_errors.js';
import { supplierSettings } from './migrations/018_supplier_settings.js';
import { ordersRefPrefix } from './migrations/019_orders_ref_prefix.js';
import { marginRules } from './migrations/020_margin_rules.js';
import { ordersCreated } from './migrations/024_orders_created.js';
import { supplierRef } from './migrations/025_supplier_ref.js';
import { supplierBreaker } from './migrations/026_supplier_breaker.js';
import { storeSettings } from './migrations/028_store_settings.js';
import { bankDeposits } from './migrations/037_bank_deposits.js';
import { routesTriedCountsAttempts } from './migrations/031_routes_tried_counts_attempts.js';
import { operatorRoles } from './migrations/032_operator_roles.js';
import { notifications } from './migrations/033_notifications.js';
import { deposits } from './migrations/034_deposits.js';
import { paymentGateway } from './migrations/038_payment_gateway.js';
import { dailyAggregates } from './migrations/036_daily_aggregates.js';
import { notificationSettings } from './migrations/040_notification_settings.js';
import { approvalRequests } from './migrations/039_approval_requests.js';
import { twoFactor } from './migrations/035_two_factor.js';

/** Migrations live in code (no file globbing), recorded by Kysely before they run. */
function provider(db: Database): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      // One migration a line, so that work on separate branches merges without conflict.
      return {
        '001_initial': initial(db.dialect),
        '002_fulfilment': fulfilment,
        '003_callbacks': callbacks(db.dialect),
        '004_accounts': accounts(db.dialect),
        '005_job_groups': jobGroups,
        '006_read_paths': readPaths(db.dialect),
        '007_order_groups': orderGroups(db.dialect),
        '008_hourly_order_counts': hourlyOrderCounts(db.dialect),
        '009_ledger_order_seq': ledgerOrderSeq(db.dialect),
        '010_cache_version_notify': cacheVersionNotify(db.dialect),
        '011_ledger_drop_reseller_id_index': ledgerDropResellerIdIndex,
        '012_order_counts_all_row': orderCountsAllRow(db.dialect),
        '013_order_counts_shards': orderCountShards(db.dialect),
        '014_idempotency_keys': idempotencyKeys,
        '016_operator_gaps': operatorGaps,
        '017_api_errors': apiErrors(db.dialect),
        '018_supplier_settings': supplierSettings,
        '019_orders_ref_prefix': ordersRefPrefix(db.dialect),
        '020_margin_rules': marginRules,
        '024_orders_created': ordersCreated,
        '025_supplier_ref': supplierRef,
        '026_supplier_breaker': supplierBreaker(db.dialect),
        '028_store_settings': storeSettings,
        '031_routes_tried_counts_attempts': routesTriedCountsAttempts,
        '032_operator_roles': operatorRoles,
        '033_notifications': notifications,
        '034_deposits': deposits(db.dialect),
        '038_payment_gateway': paymentGateway,
        '036_daily_aggregates': dailyAggregates(db.dialect),
        '040_notification_settings': notificationSettings,
        '037_bank_deposits': bankDeposits,
        '039_approval_requests': approvalRequests,
        '035_two_factor': twoFactor,
      };
    },
  };
}

/** Every migration this build knows, in order (the same on both stores). */
export async function migrationNames(): Promise<string[]> {
  return Object.keys(await provider({ dialect: 'sqlite' } as Database).getMigrations()).sort();
}

/** Kysely's record of what ran (its default table name). */
export const MIGRATION_TABLE = 'kysely_migration';

/**
 * The store's migration record against this build: migrations pending (an older store put
 * under this build) and unknown (a newer version migrated it). Rejects when there is no
 * record (a new store).
 */
export async function migrationState(database: Database): Promise<{ pending: string[]; unknown: string[] }> {
  const rows = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(database.db);
  const applied = new Set(rows.rows.map((r) => r.name));
  const known = await migrationNames();
  return { pending: known.filter((n) => !applied.has(n)), unknown: [...applied].filter((n) => !known.includes(n)) };
}

export async function migrateToLatest(db: Database): Promise<string[]> {
  // Every start but the first after an upgrade has nothing to run: one read tells, without
  // the Migrator's schema introspection and lock (most of a quick CLI command's store time).
  const state = await migrationState(db).catch(() => null);
  if (state && state.pending.length === 0 && state.unknown.length === 0) return [];
  return run(new Migrator({ db: db.db, provider: provider(db) }).migrateToLatest());
}

/** Up to and including `name` (tests of a migration on data written before it). */
export async function migrateTo(db: Database, name: string): Promise<string[]> {
  return run(new Migrator({ db: db.db, provider: provider(db) }).migrateTo(name));
}

async function run(migrating: Promise<MigrationResultSet>): Promise<string[]> {
  const { error, results } = await migrating;
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
