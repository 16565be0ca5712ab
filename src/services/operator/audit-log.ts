import { parsePage } from '../../domain/list-query.js';
import type { ServiceCore } from '../core.js';

/** The audit log as the operator reads it: filtered, newest first, paged like API v1. */
export class AuditLog {
  constructor(private readonly core: Pick<ServiceCore, 'repos'>) {}

  async list(q: { operator_id?: string; target_kind?: string; target_id?: string; action?: string; page?: string; limit?: string }) {
    const page = parsePage(q);
    const { entries, total } = await this.core.repos.audit.list({
      operatorId: q.operator_id || undefined, targetKind: q.target_kind || undefined, targetId: q.target_id || undefined, action: q.action || undefined,
      limit: page.limit, offset: page.offset,
    });
    return { items: entries, total, page };
  }
}
