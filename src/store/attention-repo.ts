import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

export interface AttentionItem {
  id: string;
  kind: string;
  targetKind: string;
  targetId: string;
  summary: string;
  details: unknown;
  createdAt: number;
  resolvedAt: number | null;
  resolvedBy: string | null;
}

/** The operator's attention items other than orders (migration 020). Built on a connection or a transaction. */
export class AttentionRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async add(i: Omit<AttentionItem, 'resolvedAt' | 'resolvedBy'>) {
    await this.db.insertInto('attention_items').values({
      id: i.id, kind: i.kind, target_kind: i.targetKind, target_id: i.targetId, summary: i.summary,
      details: i.details === undefined || i.details === null ? null : JSON.stringify(i.details), created_at: i.createdAt,
    }).execute();
  }

  /** Adds the item unless one with its id exists (a deterministic id makes "raise once" hold under races). */
  async addOnce(i: Omit<AttentionItem, 'resolvedAt' | 'resolvedBy'>) {
    await this.db.insertInto('attention_items').values({
      id: i.id, kind: i.kind, target_kind: i.targetKind, target_id: i.targetId, summary: i.summary,
      details: i.details === undefined || i.details === null ? null : JSON.stringify(i.details), created_at: i.createdAt,
    }).onConflict((oc) => oc.column('id').doNothing()).execute();
  }

  /** Newest first; open ones only unless `all`. */
  async list(opts: { all: boolean; limit: number; offset: number }): Promise<{ items: AttentionItem[]; total: number }> {
    let q = this.db.selectFrom('attention_items');
    if (!opts.all) q = q.where('resolved_at', 'is', null);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(opts.limit).offset(opts.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { items: rows.map(toItem), total: Number(count?.n ?? 0) };
  }

  async byId(id: string): Promise<AttentionItem | null> {
    const row = await this.db.selectFrom('attention_items').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toItem(row) : null;
  }

  async resolve(id: string, by: string, now: number) {
    await this.db.updateTable('attention_items').set({ resolved_at: now, resolved_by: by }).where('id', '=', id).where('resolved_at', 'is', null).execute();
  }

  async openCount(): Promise<number> {
    const r = await this.db.selectFrom('attention_items').select((eb) => eb.fn.countAll<number>().as('n')).where('resolved_at', 'is', null).executeTakeFirst();
    return Number(r?.n ?? 0);
  }
}

function toItem(r: { id: string; kind: string; target_kind: string; target_id: string; summary: string; details: string | null; created_at: number; resolved_at: number | null; resolved_by: string | null }): AttentionItem {
  return {
    id: r.id, kind: r.kind, targetKind: r.target_kind, targetId: r.target_id, summary: r.summary, details: r.details === null ? null : JSON.parse(r.details),
    createdAt: Number(r.created_at), resolvedAt: r.resolved_at === null ? null : Number(r.resolved_at), resolvedBy: r.resolved_by,
  };
}
