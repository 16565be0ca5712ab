import type { ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/db.js';
import { JsonClient } from '../support/json-client.js';
import { ledgerConsistent } from '../support/ledger.js';
import { recordSecret } from '../support/log-audit.js';
import { startServerProcess } from '../support/server-process.js';
import { createTestStore, storeKinds, type StoreKind } from '../support/stores.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CREDITS = 8;

/**
 * Issue 43 item 8: an operator credit's Idempotency-Key after `kill -9` of the server that
 * was applying it. Each key must either replay the credit that applied or be free to apply
 * it now: never IDEMPOTENCY_KEY_IN_PROGRESS for a credit that applied (the operator would
 * give up and credit again under a new key), never a second credit.
 */
describe.each(storeKinds())('Idempotency-Key across kill -9 (%s)', (kind: StoreKind) => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

  it('after a kill -9 with keyed credits in flight, every key replays its applied credit or applies it now, once', async () => {
    const store = await createTestStore(kind);
    const database = openDatabase(store.config, { threads: false });
    try {
      const env = { DATA_DIR: store.dataDir, DATABASE_URL: store.url, MASTER_KEY: 'cd'.repeat(32), LOG_LEVEL: 'fatal' };
      // A statement whose client died ends with it, as one the client had not yet sent would
      // (PostgreSQL otherwise runs it to its end after the kill).
      if (kind === 'postgres') await sql`alter database ${sql.id(new URL(store.url).pathname.slice(1))} set client_connection_check_interval = '20ms'`.execute(database.db);
      const first = await startServerProcess(env);
      children.push(first.child);
      const email = /Email:\s+(\S+)/.exec(first.output())![1]!;
      const password = /Password:\s+(\S+)/.exec(first.output())![1]!;
      recordSecret('crash test operator password', password);
      const operatorAt = async (out: string) => {
        const c = new JsonClient(`${new URL(/topup listening on (\S+)/.exec(out)![1]!).origin}/admin/v1`);
        expect((await c.signIn(email, password)).status).toBe(200);
        return c;
      };
      const { id: resellerId } = await database.db.selectFrom('resellers').select('id').executeTakeFirstOrThrow();
      const credit = (c: JsonClient, i: number) =>
        c.request('POST', `/resellers/${resellerId}/wallet/credit`, { amount: 1000 + i, note: `crash credit ${i}` }, { 'idempotency-key': `crash-key-${i}` });
      const applied = async () => (await database.db.selectFrom('ledger_entries').select(['note']).where('reseller_id', '=', resellerId).where('type', '=', 'credit').where('note', 'like', 'crash credit %').execute()).map((r) => r.note);

      if (kind === 'postgres') {
        // Widens the moments a crash can fall into, with the store's own means: every write of
        // a key row takes a while, so the kill below lands while keys are being written
        // (before, inside or after the credit's transaction, wherever the code writes them).
        await sql`create function slow_key_write() returns trigger language plpgsql as $$ begin perform pg_sleep(0.4); return new; end $$`.execute(database.db);
        await sql`create trigger slow_key_write after insert or update on idempotency_keys for each row execute function slow_key_write()`.execute(database.db);
      }
      const op = await operatorAt(first.output());
      const inFlight = Array.from({ length: CREDITS }, (_, i) => credit(op, i).catch(() => null));
      // Killed once the first credit is in the ledger, with the others still on their way.
      const deadline = Date.now() + 30_000;
      while ((await applied()).length === 0) {
        if (Date.now() > deadline) throw new Error('no credit applied');
        await sleep(5);
      }
      first.child.kill('SIGKILL');
      await Promise.all(inFlight);
      const before = await applied();
      expect(before.length).toBeGreaterThan(0);
      if (kind === 'postgres') expect(before.length).toBeLessThan(CREDITS);
      if (kind === 'postgres') await sql`drop trigger slow_key_write on idempotency_keys`.execute(database.db);

      const second = await startServerProcess(env);
      children.push(second.child);
      const again = await operatorAt(second.output());
      for (let i = 0; i < CREDITS; i++) {
        const r = await credit(again, i);
        expect(r.status, `key ${i}: ${r.text}`).toBe(200);
        const wasApplied = before.includes(`crash credit ${i}`);
        // Applied before the kill: its answer is replayed; not applied: it applies now.
        expect(r.headers['idempotent-replayed'], `key ${i}`).toBe(wasApplied ? 'true' : undefined);
        expect(r.body.data.entry.note).toBe(`crash credit ${i}`);
      }
      const after = await applied();
      for (let i = 0; i < CREDITS; i++) expect(after.filter((n) => n === `crash credit ${i}`), `key ${i}`).toHaveLength(1);
      await ledgerConsistent(database.db);
      second.child.kill('SIGKILL');
    } finally {
      await database.close();
      await store.drop();
    }
  }, 120_000);
});
