import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.js';

export interface AuditEntry {
  operatorId: string;
  action: string;
  targetKind: string;
  targetId: string;
  before: unknown;
  after: unknown;
  note?: string | null;
  /** Four-eyes: the second operator who approved the action (operatorId asked for it). */
  approvedBy?: string | null;
}

export interface AuditFilter {
  operatorId?: string;
  targetKind?: string;
  targetId?: string;
  action?: string;
  limit: number;
  offset: number;
}

/**
 * The operator audit log: who did what to which target, with before and after snapshots.
 * Append-only. record() takes the transaction of the change it describes, so a change and
 * its audit line commit together.
 */
export class AuditRepo {
  constructor(private readonly db: Kysely<DB>) {}

  static async record(trx: Kysely<DB> | Transaction<DB>, e: AuditEntry, now: number): Promise<void> {
    await trx
      .insertInto('audit_log')
      .values({
        operator_id: e.operatorId, action: e.action, target_kind: e.targetKind, target_id: e.targetId,
        before: e.before === undefined || e.before === null ? null : JSON.stringify(e.before),
        after: e.after === undefined || e.after === null ? null : JSON.stringify(e.after),
        note: e.note ?? null, created_at: now, approved_by: e.approvedBy ?? null,
      })
      .execute();
  }

  async record(e: AuditEntry, now: number): Promise<void> {
    await AuditRepo.record(this.db, e, now);
  }

  private filtered(f: Omit<AuditFilter, 'limit' | 'offset'>) {
    let q = this.db.selectFrom('audit_log as a').leftJoin('operators as o', 'o.id', 'a.operator_id').leftJoin('operators as ap', 'ap.id', 'a.approved_by');
    if (f.operatorId) q = q.where('a.operator_id', '=', f.operatorId);
    if (f.targetKind) q = q.where('a.target_kind', '=', f.targetKind);
    if (f.targetId) q = q.where('a.target_id', '=', f.targetId);
    if (f.action) q = q.where('a.action', '=', f.action);
    return q;
  }

  /** Newest first. */
  async list(f: AuditFilter) {
    const [rows, count] = await Promise.all([
      this.filtered(f)
        // A shop's name for its entries (the page's rows only: the join runs after the limit's rows are chosen on a's index).
        .leftJoin('resellers as r', (j) => j.onRef('r.id', '=', 'a.target_id').on('a.target_kind', '=', 'reseller'))
        .select(['a.id', 'a.operator_id', 'o.email as operator_email', 'a.action', 'a.target_kind', 'a.target_id', 'a.before', 'a.after', 'a.note', 'a.created_at', 'r.name as reseller_name', 'a.approved_by', 'ap.email as approved_by_email'])
        .orderBy('a.id', 'desc').limit(f.limit).offset(f.offset).execute(),
      this.filtered(f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const entries = rows.map((r) => ({
      id: Number(r.id), operatorId: r.operator_id, operatorEmail: r.operator_email ?? null, action: r.action, targetKind: r.target_kind,
      targetId: r.target_id, before: r.before === null ? null : (JSON.parse(r.before) as unknown), after: r.after === null ? null : (JSON.parse(r.after) as unknown),
      note: r.note, createdAt: Number(r.created_at), resellerName: r.reseller_name ?? null, approvedBy: r.approved_by, approvedByEmail: r.approved_by_email ?? null,
    }));
    return { entries, total: Number(count.n) };
  }
}
