import type { Kysely, Selectable } from 'kysely';
import type { ApprovalKind, ApprovalState } from '../domain/four-eyes.js';
import type { ApprovalRequestsTable, DB } from './schema.js';

export interface ApprovalRequest {
  id: string;
  kind: ApprovalKind;
  targetKind: string;
  targetId: string;
  /** Minor units; null for supplier credentials. */
  amount: number | null;
  note: string | null;
  /** Sealed new credentials (supplier.credentials); never leaves the service. */
  payloadEnc: string | null;
  state: ApprovalState;
  requestedBy: string;
  requestedByEmail: string | null;
  requestedAt: number;
  decidedBy: string | null;
  decidedByEmail: string | null;
  decidedAt: number | null;
  reason: string | null;
  result: unknown;
}

export type NewApprovalRequest = Pick<ApprovalRequest, 'id' | 'kind' | 'targetKind' | 'targetId' | 'amount' | 'note' | 'payloadEnc' | 'requestedBy' | 'requestedAt'>;

/** Four-eyes requests. Every state change is guarded by state = 'pending', so a request is decided once. */
export class ApprovalsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(r: NewApprovalRequest): Promise<void> {
    await this.db.insertInto('approval_requests').values({
      id: r.id, kind: r.kind, target_kind: r.targetKind, target_id: r.targetId, amount: r.amount, note: r.note, payload_enc: r.payloadEnc,
      state: 'pending', requested_by: r.requestedBy, requested_at: r.requestedAt,
    }).execute();
  }

  private select() {
    return this.db.selectFrom('approval_requests as a')
      .leftJoin('operators as q', 'q.id', 'a.requested_by')
      .leftJoin('operators as d', 'd.id', 'a.decided_by')
      .selectAll('a')
      .select(['q.email as requested_by_email', 'd.email as decided_by_email']);
  }

  async get(id: string): Promise<ApprovalRequest | null> {
    const row = await this.select().where('a.id', '=', id).executeTakeFirst();
    return row ? toRequest(row) : null;
  }

  /** Pending first-asked first; decided ones newest first. */
  async list(f: { states: ApprovalState[]; limit: number; offset: number }) {
    let q = this.select();
    let count = this.db.selectFrom('approval_requests as a').select((eb) => eb.fn.countAll<number>().as('n'));
    if (f.states.length > 0) {
      q = q.where('a.state', 'in', f.states);
      count = count.where('a.state', 'in', f.states);
    }
    const onlyPending = f.states.length === 1 && f.states[0] === 'pending';
    const [rows, n] = await Promise.all([
      q.orderBy('a.requested_at', onlyPending ? 'asc' : 'desc').orderBy('a.id').limit(f.limit).offset(f.offset).execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRequest), total: Number(n.n) };
  }

  /**
   * pending → `to`, only if still pending: the one statement that makes a decision happen
   * once (a second approver's update matches no row). Returns whether it did.
   */
  async decide(id: string, to: Exclude<ApprovalState, 'pending'>, by: string, now: number, extra: { reason?: string | null; result?: unknown } = {}): Promise<boolean> {
    const r = await this.db.updateTable('approval_requests')
      .set({ state: to, decided_by: by, decided_at: now, reason: extra.reason ?? null, result: extra.result === undefined ? null : JSON.stringify(extra.result) })
      .where('id', '=', id).where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}

type Row = Selectable<ApprovalRequestsTable> & { requested_by_email: string | null; decided_by_email: string | null };

const toRequest = (r: Row): ApprovalRequest => ({
  id: r.id, kind: r.kind as ApprovalKind, targetKind: r.target_kind, targetId: r.target_id,
  amount: r.amount === null ? null : Number(r.amount), note: r.note, payloadEnc: r.payload_enc,
  state: r.state as ApprovalState, requestedBy: r.requested_by, requestedByEmail: r.requested_by_email, requestedAt: Number(r.requested_at),
  decidedBy: r.decided_by, decidedByEmail: r.decided_by_email, decidedAt: r.decided_at === null ? null : Number(r.decided_at),
  reason: r.reason, result: r.result === null ? null : (JSON.parse(r.result) as unknown),
});
