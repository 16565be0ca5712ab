import { sql, type Kysely, type KyselyPlugin } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { FulfilmentRepo } from '../../src/store/fulfilment-repo.js';
import { migrateTo, migrateToLatest } from '../../src/store/migrate.js';
import { OperatorOrdersRepo } from '../../src/store/operator-orders-repo.js';
import { applyReportOffset, rebuildStatements } from '../../src/store/report-daily-sql.js';
import { aggregates, recount } from '../support/report-recount.js';
import type { DB } from '../../src/store/schema.js';
import { createTestStore, storeKinds, type StoreKind, type TestStore } from '../support/stores.js';

/**
 * Issue 38: report_daily is kept by the settlements themselves (triggers, one rule for both
 * stores, src/store/report-daily-sql.ts). Whatever happens (random successes, failures
 * with refunds, manual refunds of processing and delivered orders, settlements that crash
 * at any statement), the table must equal a recount from the orders and the ledger, done
 * here in plain JavaScript from the rows: the same expectation for both stores, so the two
 * dialects' triggers agree with each other and with the backfill.
 */

const JAKARTA = 420;
const DAY = 86_400_000;
/** 2026-11-20 16:30 UTC = 23:30 in Jakarta: random times cross local midnights. */
const START = Date.UTC(2026, 10, 20, 16, 30);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Fails the `at`-th statement sent through it (a crash between two statements of a settlement). */
function crashAt(at: number): KyselyPlugin & { seen: () => number } {
  let n = 0;
  return {
    seen: () => n,
    transformQuery(args) {
      if (++n === at) throw new Error('simulated crash');
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
}

function harness(kind: StoreKind) {
  let store: TestStore | undefined;
  let database: Database | undefined;
  let next = 0;
  const open = async (upTo?: string) => {
    store = await createTestStore(kind);
    database = openDatabase(store.config, { threads: false });
    if (upTo) await migrateTo(database, upTo);
    else await migrateToLatest(database);
    const db = database.db;
    for (const [id, tier] of [['r-a', 'gold'], ['r-b', 'diamond']] as const) {
      await db.insertInto('resellers').values({ id, name: id, email: `${id}@x.test`, tier, status: 'active', balance: 0, callback_url: null, created_at: START, updated_at: START }).execute();
    }
    for (const id of ['s-1', 's-2']) await db.insertInto('suppliers').values({ id, name: id, adapter: 'sandbox', enabled: 1, status: 'active', credentials_enc: null, created_at: START }).execute();
    return db;
  };
  /** A processing order, as OrdersRepo leaves it (its debit entry is not needed here). */
  const place = async (db: Kysely<DB>, r: () => number, status: 'processing' | 'success' | 'failed' = 'processing', at = START, withCost = true) => {
    const i = ++next;
    const resellerId = r() < 0.5 ? 'r-a' : 'r-b';
    const product = ['ML-5', 'FF-100', 'GP-10'][Math.floor(r() * 3)]!;
    const o = {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, reseller_id: resellerId, ref_id: `m-${i}`, product_code: product, product_name: product,
      category_slug: product === 'GP-10' ? 'voucher' : 'game', target: '1', zone: null, price: 1000 + Math.floor(r() * 50_000), status,
      serial_number: status === 'success' ? `SN${i}` : null, failure_code: null, failure_reason: null, created_at: at, completed_at: status === 'processing' ? null : at,
      updated_at: at, checker_verified: 0, seq: i, supplier_id: r() < 0.5 ? 's-1' : 's-2',
    };
    await db.insertInto('orders').values(withCost ? { ...o, cost: status === 'success' ? 900 : null } : o).execute();
    return o;
  };
  return {
    open, place,
    db: () => database!.db,
    database: () => database!,
    dialect: () => database!.dialect,
    async close() {
      await database?.close();
      await store?.drop();
      database = undefined;
      store = undefined;
    },
  };
}

describe.each(storeKinds())('daily aggregates (%s)', (kind) => {
  const t = harness(kind);
  afterEach(() => t.close());

  it('equal a recount after random settlements, manual refunds and crashes mid-settlement', async () => {
    const db = await t.open();
    const r = rng(kind === 'sqlite' ? 38 : 83);
    const processing: string[] = [];
    const delivered: string[] = [];
    let now = START;
    let crashes = 0;
    for (let step = 0; step < 260; step++) {
      now += Math.floor(r() * 2 * 3_600_000); // up to two hours: many local days, edges included
      const roll = r();
      if (roll < 0.35 || processing.length === 0) {
        processing.push((await t.place(db, r, 'processing', now)).id);
        continue;
      }
      const crash = r() < 0.25 ? crashAt(1 + Math.floor(r() * 6)) : null;
      const on = crash ? db.withPlugin(crash) : db;
      const fulfilment = new FulfilmentRepo(on, t.dialect());
      const refunds = new OperatorOrdersRepo(on);
      const pick = (list: string[]) => list.splice(Math.floor(r() * list.length), 1)[0]!;
      const noop = { first: async () => {}, last: async () => {} };
      try {
        if (roll < 0.6) {
          const id = pick(processing);
          const cost = r() < 0.2 ? null : 500 + Math.floor(r() * 500);
          if (await fulfilment.succeed(id, `SN-${step}`, now, undefined, { cost })) delivered.push(id);
          // A rerun of the same settlement changes nothing.
          expect(await new FulfilmentRepo(db, t.dialect()).succeed(id, 'again', now + 1)).toBeNull();
        } else if (roll < 0.8) {
          const id = pick(processing);
          await fulfilment.fail(id, { code: 'SUPPLIER_REJECTED', reason: 'no' } as never, now);
          expect(await new FulfilmentRepo(db, t.dialect()).fail(id, { code: 'SUPPLIER_REJECTED', reason: 'no' } as never, now + 1)).toBeNull();
        } else {
          const fromDelivered = delivered.length > 0 && r() < 0.6;
          const id = pick(fromDelivered ? delivered : processing);
          const res = await refunds.refundManually(id, 'by hand', now, noop);
          expect(res.ok).toBe(true);
        }
      } catch (e) {
        if (!crash || (e as Error).message !== 'simulated crash') throw e;
        crashes++;
      }
      // A crashed settlement left nothing: the order is back where it was (processing or
      // delivered) and is settled later by another step.
      const rows = await db.selectFrom('orders').select(['id', 'status']).where('status', 'in', ['processing', 'success']).execute();
      processing.splice(0, processing.length, ...rows.filter((o) => o.status === 'processing').map((o) => o.id));
      delivered.splice(0, delivered.length, ...rows.filter((o) => o.status === 'success').map((o) => o.id));
      if (step % 40 === 0) expect(await aggregates(db)).toEqual(await recount(db));
    }
    expect(crashes).toBeGreaterThan(5);
    const kept = await aggregates(db);
    expect(kept).toEqual(await recount(db));
    expect(kept.length).toBeGreaterThan(20);
    // Every kind of event happened.
    for (const m of ['delivered', 'cost_unknown', 'refunds', 'manual_refunds', 'manual_refunded_delivered']) expect(kept.some((l) => new RegExp(` ${m}=[1-9]`).test(l)), m).toBe(true);

    // The backfill (migration 036, a change of time zone) computes the same table.
    await db.transaction().execute(async (trx) => {
      for (const s of rebuildStatements(JAKARTA)) await sql.raw(s).execute(trx);
    });
    expect(await aggregates(db)).toEqual(kept);

    // Another offset: days move, the triggers follow (UTC here).
    await applyReportOffset(db, t.dialect(), 0);
    expect(await aggregates(db)).toEqual(await recount(db, 0));
    const id = (await t.place(db, r, 'processing', now + DAY)).id;
    await new FulfilmentRepo(db, t.dialect()).succeed(id, 'SN-late', now + DAY, undefined, { cost: 10 });
    expect(await aggregates(db)).toEqual(await recount(db, 0));
  });

  it('the migration counts the orders of an upgraded store in', async () => {
    const db = await t.open('033_notifications');
    const r = rng(7);
    for (let i = 0; i < 40; i++) {
      const status = (['success', 'failed', 'processing', 'refunded'] as const)[i % 4]!;
      const at = START + i * 5_000_000;
      const o = await t.place(db, r, status === 'refunded' ? 'processing' : status, at, false);
      if (status === 'refunded') {
        // Refunded by hand, half of them after delivery; the refund's entry dates the refund.
        await db.updateTable('orders').set({ status: 'refunded', completed_at: at, serial_number: i % 8 === 3 ? 'SN' : null }).where('id', '=', o.id).execute();
        await db.insertInto('ledger_entries').values({ reseller_id: o.reseller_id, type: 'order_refund', amount: o.price, balance_after: o.price, order_id: o.id, note: null, created_at: at + 3 * DAY, order_seq: o.seq }).execute();
      }
    }
    expect(await migrateToLatest(t.database())).toContain('036_daily_aggregates');
    const counted = await aggregates(db);
    expect(counted).toEqual(await recount(db));
    // Cost is unknown for orders delivered before the upgrade.
    expect(counted.filter((l) => / delivered=[1-9]/.test(l)).every((l) => / cost=0 /.test(l) && !/ cost_unknown=0 /.test(l))).toBe(true);
    expect(counted.some((l) => / manual_refunded_delivered=[1-9]/.test(l))).toBe(true);
  });
});
