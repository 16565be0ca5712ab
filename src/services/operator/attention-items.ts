import { parsePage } from '../../domain/list-query.js';
import { AppError } from '../../errors.js';
import { AttentionRepo } from '../../store/attention-repo.js';
import { AuditRepo } from '../../store/audit-repo.js';
import type { ServiceCore } from '../core.js';
import type { Actor } from './actor.js';

/**
 * The operator's attention items besides orders (those are orders.needs_attention): e.g. a
 * sync that repriced a product or took a route out of service. Open until a person marks
 * one resolved (audited); nothing else acts on them.
 */
export class AttentionItems {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'clock'>) {}

  /** Open items, newest first (all of them with status=all), paged like API v1. */
  async list(q: { status?: string; page?: string; limit?: string }) {
    if (q.status !== undefined && q.status !== 'open' && q.status !== 'all') throw new AppError('VALIDATION_ERROR', 'status must be open or all');
    const page = parsePage(q);
    const r = await new AttentionRepo(this.core.db).list({ all: q.status === 'all', limit: page.limit, offset: page.offset });
    return { ...r, page };
  }

  openCount() {
    return new AttentionRepo(this.core.db).openCount();
  }

  /** Resolving a resolved item changes nothing and writes no audit line. */
  async resolve(id: string, actor: Actor) {
    const now = this.core.clock.now();
    return this.core.db.transaction().execute(async (trx) => {
      const repo = new AttentionRepo(trx);
      const before = await repo.byId(id);
      if (!before) throw new AppError('NOT_FOUND', `no attention item with id "${id}"`);
      if (before.resolvedAt !== null) return before;
      await repo.resolve(id, actor, now);
      await AuditRepo.record(trx, { operatorId: actor, action: 'attention.resolve', targetKind: 'attention_item', targetId: id, before: { resolved: false }, after: { resolved: true, kind: before.kind, summary: before.summary } }, now);
      return (await repo.byId(id))!;
    });
  }
}
