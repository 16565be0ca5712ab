import { parsePage } from '../../domain/list-query.js';
import { AppError } from '../../errors.js';
import { AuditRepo } from '../../store/audit-repo.js';
import { OutboxRepo, requeueMessage } from '../../store/outbox-repo.js';
import type { MessageState } from '../../store/schema.js';
import type { ServiceCore } from '../core.js';
import type { Actor } from './actor.js';

export const MESSAGE_STATES: readonly MessageState[] = ['pending', 'sent', 'kept', 'failed'];

/**
 * Templates whose body holds a credential for someone else (a password-reset link): the
 * console shows that such a message exists and how it went, never its link, so one
 * operator cannot take over another's account (or a shop's) through the outbox.
 */
const SECRET_TEMPLATES = new Set(['password_reset']);
const WITHHELD = '(withheld: this message carries a password-reset link for its recipient only)';

/** The outbox as the operator reads it (the Messages page), and resending a message. */
export class OutboxMessages {
  constructor(private readonly core: Pick<ServiceCore, 'db' | 'clock' | 'wake'>) {}

  async list(q: { state?: string; page?: string; limit?: string }) {
    const page = parsePage(q);
    if (q.state !== undefined && !(MESSAGE_STATES as readonly string[]).includes(q.state)) {
      throw new AppError('VALIDATION_ERROR', `state must be one of ${MESSAGE_STATES.join(', ')} (got "${q.state}")`);
    }
    const { rows, total } = await new OutboxRepo(this.core.db).list({ state: q.state as MessageState | undefined, limit: page.limit, offset: page.offset });
    return { items: rows, total, page };
  }

  async get(id: string) {
    const m = await new OutboxRepo(this.core.db).get(id);
    if (!m) throw new AppError('NOT_FOUND', `no message with id ${id}`);
    const secret = SECRET_TEMPLATES.has(m.template);
    return { ...m, body_text: secret ? WITHHELD : m.body_text, body_html: secret ? null : m.body_html };
  }

  /** Sends a message again (sent, kept or failed): pending with a fresh attempt count; audited. */
  async resend(id: string, actor: Actor) {
    const before = await this.get(id);
    const now = this.core.clock.now();
    await this.core.db.transaction().execute(async (trx) => {
      if (!(await requeueMessage(trx, id, now))) throw new AppError('INVALID_STATE', 'this message is being sent already; wait for its outcome');
      await AuditRepo.record(trx, { operatorId: actor, action: 'message.resend', targetKind: 'message', targetId: id, before: { state: before.state, attempts: Number(before.attempts) }, after: { state: 'pending' } }, now);
    });
    this.core.wake();
    return this.get(id);
  }
}
