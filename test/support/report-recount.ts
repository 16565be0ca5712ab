import { sql, type Kysely } from 'kysely';
import { dayOf } from '../../src/domain/report-calendar.js';
import { REPORT_MEASURES } from '../../src/store/report-daily-sql.js';
import type { DB } from '../../src/store/schema.js';

/**
 * The daily aggregates (report_daily) against a recount from the orders and their refund
 * entries, by the rules of issue 38, in plain JavaScript: one expectation for both stores.
 */
const JAKARTA = 420;
type Row = Record<string, number | string>;
const KEY = ['day', 'product_code', 'category_slug', 'supplier_id', 'reseller_id', 'tier'] as const;


/** The aggregates as readers see them: summed over shards, zero rows left out. */
export async function aggregates(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<Row>`select day, product_code, category_slug, supplier_id, reseller_id, tier, ${sql.raw(REPORT_MEASURES.map((m) => `sum(${m}) as ${m}`).join(', '))}
    from report_daily group by day, product_code, category_slug, supplier_id, reseller_id, tier`.execute(db);
  return rows.map(line).filter((l) => l !== null).sort() as string[];
}

function line(r: Row): string | null {
  if (REPORT_MEASURES.every((m) => Number(r[m]) === 0)) return null;
  return [...KEY.map((k) => String(r[k])), ...REPORT_MEASURES.map((m) => `${m}=${Number(r[m])}`)].join(' ');
}

/** The recount: from the orders and their refund entries, by the rules of issue 38. */
export async function recount(db: Kysely<DB>, offset = JAKARTA): Promise<string[]> {
  const orders = await db.selectFrom('orders as o').innerJoin('resellers as r', 'r.id', 'o.reseller_id').select(['o.id', 'o.reseller_id', 'o.seq', 'o.product_code', 'o.category_slug', 'o.supplier_id', 'o.status', 'o.price', 'o.cost', 'o.serial_number', 'o.completed_at', 'o.updated_at', 'r.tier']).execute();
  const refunds = await db.selectFrom('ledger_entries').select(['reseller_id', 'order_seq', 'created_at']).where('type', '=', 'order_refund').execute();
  const refundAt = new Map(refunds.map((l) => [`${l.reseller_id}/${Number(l.order_seq)}`, Number(l.created_at)]));
  const acc = new Map<string, Row>();
  const add = (o: (typeof orders)[number], at: number, m: Partial<Record<(typeof REPORT_MEASURES)[number], number>>) => {
    const k = { day: dayOf(at, offset), product_code: o.product_code, category_slug: o.category_slug, supplier_id: o.supplier_id ?? '', reseller_id: o.reseller_id, tier: o.tier };
    const id = KEY.map((c) => k[c]).join('|');
    const row = acc.get(id) ?? { ...k, ...Object.fromEntries(REPORT_MEASURES.map((x) => [x, 0])) };
    for (const [x, v] of Object.entries(m)) row[x] = Number(row[x]) + v;
    acc.set(id, row);
  };
  for (const o of orders) {
    const price = Number(o.price);
    const settledAt = Number(o.completed_at ?? o.updated_at);
    if (o.serial_number !== null) add(o, settledAt, { delivered: 1, revenue: price, cost: o.cost === null ? 0 : Number(o.cost), cost_unknown: o.cost === null ? 1 : 0 });
    if (o.status === 'failed') add(o, settledAt, { refunds: 1, refunded: price });
    if (o.status === 'refunded') add(o, refundAt.get(`${o.reseller_id}/${Number(o.seq)}`)!, { manual_refunds: 1, manual_refunded: price, manual_refunded_delivered: o.serial_number !== null ? price : 0 });
  }
  return [...acc.values()].map(line).filter((l) => l !== null).sort() as string[];
}

