import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountChecker } from '../../src/adapters/checkers/types.js';
import { AppError } from '../../src/errors.js';
import { randomIds } from '../../src/services/ids.js';
import { PlaceOrder } from '../../src/services/place-order.js';
import { SupplierGate } from '../../src/services/supplier-gate.js';
import { ValidateAccount } from '../../src/services/validate-account.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';
import { stateSnapshot } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

/** Checkers that never answer, fail, or answer definitively: only a definitive verdict in time refuses. */
const hanging: AccountChecker = { check: () => new Promise(() => {}) };
const broken: AccountChecker = { check: async () => Promise.reject(new Error('checker backend down')) };
const refusing: AccountChecker = { check: async () => ({ verdict: 'REGION_LOCK', nickname: null }) };

describe.each(storeKinds())('pre-order checker time limit (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  const placeWith = (checker: AccountChecker) =>
    new PlaceOrder({
      orders: t.platform.repos.orders, catalog: t.platform.catalogCache, gate: new SupplierGate(t.platform.catalogCache), checker,
      checkerTimeoutMs: 20, clock: { now: () => Date.now() }, ids: randomIds, currency: { code: 'IDR', decimals: 0, maxAmount: 1_000_000_000 },
    });
  const who = () => ({ resellerId: t.demo.resellerId, tier: 'gold' as const, active: true, secret: '', timestamp: '' });

  it.each([['never answers', hanging], ['fails', broken]])('a checker that %s lets the order proceed, unverified', async (_, checker) => {
    const order = await placeWith(checker).execute(who(), { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' });
    expect(order.status).toBe('processing');
    const row = await t.platform.database.db.selectFrom('orders').select('checker_verified').where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(row.checker_verified).toBe(0);
  });

  it('a definitive verdict refuses before any charge', async () => {
    const before = await stateSnapshot(t.platform);
    const err = await placeWith(refusing).execute(who(), { ref_id: uniqueRef(), product_code: 'FF-100', target: '123456789' }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('REGION_LOCK');
    expect(await stateSnapshot(t.platform)).toEqual(before);
  });

  it('POST /validation answers CHECKER_UNAVAILABLE when the checker does not answer in time', async () => {
    const validate = new ValidateAccount({ catalog: t.platform.catalogCache, checker: hanging, timeoutMs: 20 });
    const err = await validate.execute(who(), { category_slug: 'free-fire', fields: { user_id: '123456789' } }).catch((e) => e);
    expect((err as AppError).code).toBe('CHECKER_UNAVAILABLE');
  });
});
