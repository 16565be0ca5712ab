import type { Kysely, Selectable, Transaction } from 'kysely';
import type { BankMutationsTable, DB } from './schema.js';

type Db = Kysely<DB> | Transaction<DB>;

export interface BankMutation {
  id: string;
  bankAccountId: string;
  identity: string;
  source: 'statement' | 'webhook';
  bookedOn: string;
  description: string;
  amount: number;
  direction: 'CR' | 'DB';
  state: string;
  depositId: string | null;
  actor: string | null;
  note: string | null;
  createdAt: number;
  updatedAt: number;
}

const toMutation = (r: Selectable<BankMutationsTable>): BankMutation => ({
  id: r.id, bankAccountId: r.bank_account_id, identity: r.identity, source: r.source, bookedOn: r.booked_on, description: r.description,
  amount: Number(r.amount), direction: r.direction, state: r.state, depositId: r.deposit_id, actor: r.actor, note: r.note,
  createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
});

/** Bank mutations, each stored once per (bank account, identity) (migration 037). */
export class BankMutationsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** false: this account already has a mutation of this identity (it was matched or queued then). */
  static async insertOnce(db: Db, m: Omit<BankMutation, 'depositId' | 'actor' | 'note' | 'updatedAt'>): Promise<boolean> {
    const r = await db.insertInto('bank_mutations').values({
      id: m.id, bank_account_id: m.bankAccountId, identity: m.identity, source: m.source, booked_on: m.bookedOn, description: m.description,
      amount: m.amount, direction: m.direction, state: m.state, deposit_id: null, actor: null, note: null, created_at: m.createdAt, updated_at: m.createdAt,
    }).onConflict((oc) => oc.columns(['bank_account_id', 'identity']).doNothing()).returning('id').executeTakeFirst();
    return r !== undefined;
  }

  static async settle(db: Db, id: string, fromState: string, to: { state: string; depositId?: string | null; actor?: string | null; note?: string | null; now: number }): Promise<boolean> {
    const r = await db.updateTable('bank_mutations')
      .set({ state: to.state, deposit_id: to.depositId ?? null, actor: to.actor ?? null, note: to.note ?? null, updated_at: to.now })
      .where('id', '=', id).where('state', '=', fromState).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  static async byId(db: Db, id: string): Promise<BankMutation | null> {
    const r = await db.selectFrom('bank_mutations').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toMutation(r) : null;
  }

  /** The identities of these lines this account already holds. */
  async known(bankAccountId: string, identities: string[]): Promise<Map<string, BankMutation>> {
    const out = new Map<string, BankMutation>();
    for (let i = 0; i < identities.length; i += 500) {
      const rows = await this.db.selectFrom('bank_mutations').selectAll().where('bank_account_id', '=', bankAccountId).where('identity', 'in', identities.slice(i, i + 500)).execute();
      for (const r of rows) out.set(r.identity, toMutation(r));
    }
    return out;
  }

  /** Newest first. */
  async list(f: { states: string[] | null; limit: number; offset: number }): Promise<{ items: BankMutation[]; total: number }> {
    let q = this.db.selectFrom('bank_mutations');
    if (f.states?.length) q = q.where('state', 'in', f.states);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { items: rows.map(toMutation), total: Number(count?.n ?? 0) };
  }

  async unmatchedOlderThan(t: number): Promise<BankMutation[]> {
    return (await this.db.selectFrom('bank_mutations').selectAll().where('state', '=', 'unmatched').where('created_at', '<=', t).limit(100).execute()).map(toMutation);
  }
}
