import { sql, type Kysely } from 'kysely';
import type { Dialect } from './db.js';

/**
 * The daily aggregates (`report_daily`, migration 036): one rule, written once here, from
 * which both stores' triggers are generated. A trigger on `orders` runs inside the
 * statement that settles an order, so the aggregates commit (or roll back) with the
 * settlement whoever writes it: FulfilmentRepo.succeed (also PostgreSQL's one-statement
 * form), FulfilmentRepo.fail with its refund, the operator's manual refund, a crash
 * anywhere in between. The contributions below are plain SQL (CASE, comparisons, integer
 * arithmetic) that mean the same on SQLite and PostgreSQL; test/reports proves the two
 * stores' tables equal a recount from orders and ledger after the same random histories.
 *
 * The event and its day (in the operator's fixed offset, src/domain/report-calendar.ts):
 * - processing → success: a delivery on the day of completed_at (revenue = price, cost =
 *   orders.cost, the supplier's charge recorded by the settlement; null counts as unknown);
 * - processing → failed: a refund to the wallet, on the day of completed_at;
 * - processing|success → refunded: a manual refund on the day it happened (updated_at,
 *   which is the refund's ledger entry's created_at); of a delivered order (from success)
 *   it is also counted as `manual_refunded_delivered` (revenue given back).
 * An order inserted already settled (imports, benches) counts as if it had settled then.
 * The row's tier is the reseller's when the event happened.
 */

export const REPORT_OFFSET_SETTING = 'report_utc_offset_minutes';
export const DEFAULT_REPORT_OFFSET_MINUTES = 420;

/** The key columns, in the primary key's order (day first: every report reads a day range). */
export const REPORT_KEY = ['day', 'product_code', 'category_slug', 'supplier_id', 'reseller_id', 'tier', 'shard'] as const;
/** The measures: counts and sums of minor units. */
export const REPORT_MEASURES = ['delivered', 'revenue', 'cost', 'cost_unknown', 'refunds', 'refunded', 'manual_refunds', 'manual_refunded', 'manual_refunded_delivered'] as const;
export type ReportMeasure = (typeof REPORT_MEASURES)[number];

/** PostgreSQL spreads a key's row over 16 shards by order id (as order_counts, migration 013): readers sum. */
const SHARDS = 16;

/** The three events, as conditions over the old status (a literal for inserts) and `new`. */
function events(old: string) {
  return {
    delivered: `(${old} = 'processing' and new.status = 'success')`,
    refund: `(${old} = 'processing' and new.status = 'failed')`,
    manual: `(${old} in ('processing', 'success') and new.status = 'refunded')`,
  };
}

function contribution(old: string, offsetMinutes: number, dialect: Dialect) {
  const e = events(old);
  const when = (cond: string, then: string) => `case when ${cond} then ${then} else 0 end`;
  const offsetMs = offsetMinutes * 60_000;
  const values: Record<(typeof REPORT_KEY)[number] | ReportMeasure, string> = {
    // completed_at is set by every settlement; a row written by hand without it counts on its last update.
    day: `(coalesce(case when new.status = 'refunded' then new.updated_at else new.completed_at end, new.updated_at) + ${offsetMs}) / 86400000`,
    product_code: 'new.product_code',
    category_slug: 'new.category_slug',
    supplier_id: `coalesce(new.supplier_id, '')`,
    reseller_id: 'new.reseller_id',
    tier: `coalesce((select tier from resellers where id = new.reseller_id), '')`,
    shard: dialect === 'postgres' ? `hashtext(new.id) & ${SHARDS - 1}` : '0',
    delivered: when(e.delivered, '1'),
    revenue: when(e.delivered, 'new.price'),
    cost: when(e.delivered, 'coalesce(new.cost, 0)'),
    cost_unknown: when(`${e.delivered} and new.cost is null`, '1'),
    refunds: when(e.refund, '1'),
    refunded: when(e.refund, 'new.price'),
    manual_refunds: when(e.manual, '1'),
    manual_refunded: when(e.manual, 'new.price'),
    manual_refunded_delivered: when(`${e.manual} and ${old} = 'success'`, 'new.price'),
  };
  const cols = [...REPORT_KEY, ...REPORT_MEASURES];
  const condition = `(${e.delivered} or ${e.refund} or ${e.manual})`;
  const upsert = `insert into report_daily (${cols.join(', ')})
      select ${cols.map((c) => values[c]).join(', ')} where true
      on conflict (${REPORT_KEY.join(', ')}) do update set ${REPORT_MEASURES.map((m) => `${m} = report_daily.${m} + excluded.${m}`).join(', ')};`;
  return { condition, upsert };
}

const SQLITE_TRIGGERS = ['orders_report_update', 'orders_report_insert'];

/** The statements that (re)create the triggers for this offset. */
export function reportTriggerStatements(dialect: Dialect, offsetMinutes: number): string[] {
  const update = contribution('old.status', offsetMinutes, dialect);
  const insert = contribution(`'processing'`, offsetMinutes, dialect);
  if (dialect !== 'postgres') {
    return [
      `create trigger orders_report_update after update of status on orders when ${update.condition} begin ${update.upsert} end`,
      `create trigger orders_report_insert after insert on orders when ${insert.condition} begin ${insert.upsert} end`,
    ];
  }
  return [
    `create or replace function topup_report_update() returns trigger language plpgsql as $$ begin ${update.upsert} return null; end $$`,
    `create or replace function topup_report_insert() returns trigger language plpgsql as $$ begin ${insert.upsert} return null; end $$`,
    // The WHEN clauses keep the function call off every order placed and every other update.
    `create trigger orders_report_update after update of status on orders for each row when ${update.condition} execute function topup_report_update()`,
    `create trigger orders_report_insert after insert on orders for each row when ${insert.condition} execute function topup_report_insert()`,
  ];
}

export function dropReportTriggerStatements(dialect: Dialect): string[] {
  return dialect === 'postgres'
    ? ['drop trigger if exists orders_report_update on orders', 'drop trigger if exists orders_report_insert on orders']
    : SQLITE_TRIGGERS.map((t) => `drop trigger if exists ${t}`);
}

/**
 * The aggregates recomputed from orders and the ledger (the backfill of migration 036 and
 * a change of time zone): deliveries are the orders with a serial number (success, or
 * refunded by hand after delivery), refunds the failed orders, manual refunds the
 * refunded orders on the day of their refund's ledger entry. Shard 0 on both stores.
 */
export function rebuildStatements(offsetMinutes: number): string[] {
  const off = offsetMinutes * 60_000;
  const cols = [...REPORT_KEY, ...REPORT_MEASURES];
  const z = (n: number) => Array(n).fill('0').join(', ');
  const dims = `o.product_code, o.category_slug, coalesce(o.supplier_id, ''), o.reseller_id, coalesce(r.tier, '')`;
  return [
    'delete from report_daily',
    `insert into report_daily (${cols.join(', ')})
     select e.day, e.product_code, e.category_slug, e.supplier_id, e.reseller_id, e.tier, 0, ${REPORT_MEASURES.map((m) => `sum(e.${m})`).join(', ')}
     from (
       select (coalesce(o.completed_at, o.updated_at) + ${off}) / 86400000 as day, ${dimsAs(dims)},
              1 as delivered, o.price as revenue, coalesce(o.cost, 0) as cost, case when o.cost is null then 1 else 0 end as cost_unknown,
              ${REPORT_MEASURES.slice(4).map((m) => `0 as ${m}`).join(', ')}
         from orders o left join resellers r on r.id = o.reseller_id where o.serial_number is not null
       union all
       select (coalesce(o.completed_at, o.updated_at) + ${off}) / 86400000, ${dims}, ${z(4)}, 1, o.price, ${z(3)}
         from orders o left join resellers r on r.id = o.reseller_id where o.status = 'failed'
       union all
       select (l.created_at + ${off}) / 86400000, ${dims}, ${z(6)}, 1, o.price, case when o.serial_number is not null then o.price else 0 end
         from orders o left join resellers r on r.id = o.reseller_id
         join ledger_entries l on l.reseller_id = o.reseller_id and l.order_seq = o.seq and l.type = 'order_refund'
         where o.status = 'refunded'
     ) as e
     group by e.day, e.product_code, e.category_slug, e.supplier_id, e.reseller_id, e.tier`,
  ];
}

function dimsAs(dims: string): string {
  const names = ['product_code', 'category_slug', 'supplier_id', 'reseller_id', 'tier'];
  return dims.split(/, (?![^(]*\))/).map((d, i) => `${d} as ${names[i]}`).join(', ');
}

/**
 * Sets the reports' offset: triggers recreated for it and the table rebuilt, in one
 * transaction (a settlement meanwhile waits for it), and the setting stored.
 */
export async function applyReportOffset(db: Kysely<any>, dialect: Dialect, offsetMinutes: number): Promise<void> {
  const run = async (trx: Kysely<any>) => {
    if (dialect === 'postgres') await sql`lock table orders in share row exclusive mode`.execute(trx);
    for (const s of dropReportTriggerStatements(dialect)) await sql.raw(s).execute(trx);
    for (const s of reportTriggerStatements(dialect, offsetMinutes)) await sql.raw(s).execute(trx);
    for (const s of rebuildStatements(offsetMinutes)) await sql.raw(s).execute(trx);
    await trx.insertInto('store_settings').values({ key: REPORT_OFFSET_SETTING, value: String(offsetMinutes) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(offsetMinutes) })).execute();
  };
  if ((db as { isTransaction?: boolean }).isTransaction) await run(db);
  else await db.transaction().execute(run);
}

export async function storedReportOffset(db: Kysely<any>): Promise<number | null> {
  const r = await db.selectFrom('store_settings').select('value').where('key', '=', REPORT_OFFSET_SETTING).executeTakeFirst();
  return r ? Number(r.value) : null;
}
