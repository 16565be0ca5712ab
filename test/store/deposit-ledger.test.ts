import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/db.js';
import { LedgerRepo } from '../../src/store/ledger-repo.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { isUniqueViolation } from '../../src/store/unique-violation.js';
import { publicLedgerType, storeLedgerTypes } from '../../src/domain/ledger-types.js';
import { creditDepositIn } from '../../src/store/deposits-repo.js';
import { createTestStore, storeKinds, type TestStore } from '../support/stores.js';

/**
 * Migration 034: a deposit is credited at most once and reversed at most once, by the
 * store itself (unique deposit_id and type), and its entries are published as the
 * documented credit and debit.
 */
describe.each(storeKinds())('deposit ledger entries (%s)', (kind) => {
  let store: TestStore | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    await store?.drop();
  });
  const now = Date.UTC(2026, 10, 27, 3);

  it('credits a deposit once, reverses it once, and lists both under the published types', async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    const { db } = database;
    await migrateToLatest(database);
    await db.insertInto('resellers').values({ id: 'r-a', name: 'a', email: 'a@x.test', tier: 'gold', status: 'active', balance: 0, callback_url: null, created_at: now, updated_at: now }).execute();
    await db.insertInto('deposits').values({
      id: 'DEP-TEST000001', reseller_id: 'r-a', channel: 'bank', state: 'paid', amount: 100_000, payable: 100_123, unique_code: 123, fee: 0,
      bank_account_id: null, sender_name: null, method: null, gateway_order_id: null, gateway_url: null, expires_at: now, paid_at: now,
      matched_by: 'operator', reference: null, actor: null, created_at: now, updated_at: now,
    }).execute();
    const deposit = (amount: number) => db.transaction().execute((trx) => LedgerRepo.depositIn(trx, { resellerId: 'r-a', depositId: 'DEP-TEST000001', amount, note: 'Deposit', now }));

    expect(await deposit(100_000)).toMatchObject({ balanceAfter: 100_000 });
    await expect(deposit(100_000)).rejects.toSatisfy(isUniqueViolation);
    expect(await deposit(-40_000)).toMatchObject({ balanceAfter: 60_000 });
    await expect(deposit(-1)).rejects.toSatisfy(isUniqueViolation);
    // A reversal never takes the wallet below zero.
    await db.insertInto('deposits').values({
      id: 'DEP-TEST000002', reseller_id: 'r-a', channel: 'gateway', state: 'paid', amount: 10, payable: 10, unique_code: null, fee: 0,
      bank_account_id: null, sender_name: null, method: 'qris', gateway_order_id: 'g-2', gateway_url: null, expires_at: now, paid_at: now,
      matched_by: 'gateway', reference: null, actor: null, created_at: now, updated_at: now,
    }).execute();
    expect(await db.transaction().execute((trx) => LedgerRepo.depositIn(trx, { resellerId: 'r-a', depositId: 'DEP-TEST000002', amount: -70_000, note: 'x', now }))).toBeNull();

    const ledger = new LedgerRepo(db);
    const all = await ledger.list({ resellerId: 'r-a', types: null, from: null, to: null, limit: 10, offset: 0 });
    expect(all.entries.map((e) => [e.type, e.amount, e.depositId])).toEqual([['deposit_reversal', -40_000, 'DEP-TEST000001'], ['deposit', 100_000, 'DEP-TEST000001']]);
    expect(all.entries.map((e) => publicLedgerType(e.type))).toEqual(['debit', 'credit']);
    const credits = await ledger.list({ resellerId: 'r-a', types: storeLedgerTypes(['credit']), from: null, to: null, limit: 10, offset: 0 });
    expect(credits.entries.map((e) => e.type)).toEqual(['deposit']);
    expect(await ledger.balance('r-a')).toBe(60_000);
  });

  it('keeps one open ticket per bank account and amount', async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    const { db } = database;
    await migrateToLatest(database);
    await db.insertInto('resellers').values({ id: 'r-a', name: 'a', email: 'a@x.test', tier: 'gold', status: 'active', balance: 0, callback_url: null, created_at: now, updated_at: now }).execute();
    await db.insertInto('bank_accounts').values({ id: 'b-1', bank: 'BCA', number: '123', holder: 'PT X', active: 1, statement_mapping: null, created_at: now, updated_at: now }).execute();
    const ticket = (id: string, state: string) => db.insertInto('deposits').values({
      id, reseller_id: 'r-a', channel: 'bank', state, amount: 100_000, payable: 100_123, unique_code: 123, fee: 0,
      bank_account_id: 'b-1', sender_name: null, method: null, gateway_order_id: null, gateway_url: null, expires_at: now, paid_at: null,
      matched_by: null, reference: null, actor: null, created_at: now, updated_at: now,
    }).execute();
    await ticket('DEP-A', 'open');
    await expect(ticket('DEP-B', 'open')).rejects.toSatisfy(isUniqueViolation);
    await ticket('DEP-C', 'expired');
    await db.updateTable('deposits').set({ state: 'paid' }).where('id', '=', 'DEP-A').execute();
    await ticket('DEP-D', 'open');
  });
});

describe.each(storeKinds())('creditDepositIn (%s)', (kind) => {
  let store: TestStore | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    await store?.drop();
  });
  const now = Date.UTC(2026, 10, 27, 3);

  it('credits an open deposit once, however many callers race, and nothing from a closed state', async () => {
    store = await createTestStore(kind);
    database = openDatabase(store.config);
    const { db } = database;
    await migrateToLatest(database);
    await db.insertInto('resellers').values({ id: 'r-a', name: 'a', email: 'a@x.test', tier: 'gold', status: 'active', balance: 5, callback_url: null, created_at: now, updated_at: now }).execute();
    const deposit = (id: string, state: string) => db.insertInto('deposits').values({
      id, reseller_id: 'r-a', channel: 'gateway', state, amount: 100_000, payable: 101_000, unique_code: null, fee: 1_000,
      bank_account_id: null, sender_name: null, method: 'qris', gateway_order_id: id, gateway_url: null, expires_at: now, paid_at: null,
      matched_by: null, reference: null, actor: null, created_at: now, updated_at: now,
    }).execute();
    await deposit('DEP-OPEN', 'open');
    await deposit('DEP-CANCELLED', 'cancelled');
    const credit = (id: string) => db.transaction().execute((trx) => creditDepositIn(trx, { id, matchedBy: 'gateway', reference: 'tx-1', actor: null, now }));
    const outcomes = await Promise.allSettled([credit('DEP-OPEN'), credit('DEP-OPEN'), credit('DEP-OPEN')]);
    const credited = outcomes.filter((o) => o.status === 'fulfilled' && o.value.credited);
    expect(credited).toHaveLength(1);
    expect(await credit('DEP-OPEN')).toEqual({ credited: false, state: 'paid' });
    expect(await credit('DEP-CANCELLED')).toEqual({ credited: false, state: 'cancelled' });
    expect(await credit('DEP-NONE')).toEqual({ credited: false, state: null });
    expect(await new LedgerRepo(db).balance('r-a')).toBe(100_005);
    const row = await db.selectFrom('deposits').selectAll().where('id', '=', 'DEP-OPEN').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'paid', matched_by: 'gateway', reference: 'tx-1' });
  });
});
