import type { Kysely } from 'kysely';
import { enqueueJob, type Executor } from './jobs-repo.js';
import { JOB_KINDS } from './job-kinds.js';
import type { DB, Language, MessageState } from './schema.js';

export interface NewMessage {
  id: string;
  /** The event and the recipient: a second write with the same key is ignored. */
  key: string;
  template: string;
  /** telegram: the operator's chat, `to` its chat id. */
  recipientKind: 'operator' | 'reseller' | 'telegram';
  recipientId: string | null;
  to: string;
  language: Language;
  subject: string;
  text: string;
  html: string;
}

export const sendMessagePayload = (messageId: string) => ({ messageId });

/**
 * Writes a message and the job that sends it, in the caller's transaction (the event's):
 * both commit with the event or neither does. Returns false when a message with this key
 * exists already (the event was recorded before), and then writes no job.
 */
export async function enqueueMessage(db: Executor, m: NewMessage, now: number): Promise<boolean> {
  const row = await db
    .insertInto('outbox_messages')
    .values({
      id: m.id, dedupe_key: m.key, template: m.template, recipient_kind: m.recipientKind, recipient_id: m.recipientId, to_address: m.to, language: m.language,
      subject: m.subject, body_text: m.text, body_html: m.html, state: 'pending', attempts: 0, last_error: null, created_at: now, updated_at: now, sent_at: null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await enqueueJob(db, { kind: JOB_KINDS.sendMessage, payload: sendMessagePayload(m.id), runAt: now }, now);
  return true;
}

export type OutboxMessage = Awaited<ReturnType<OutboxRepo['get']>> & {};

/** The outbox's reads and the sender's writes. */
export class OutboxRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async get(id: string) {
    return this.db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Newest first, optionally of one state, with how many there are. */
  async list(q: { state?: MessageState; limit: number; offset: number }) {
    let query = this.db.selectFrom('outbox_messages').select(['id', 'template', 'recipient_kind', 'recipient_id', 'to_address', 'language', 'subject', 'state', 'attempts', 'last_error', 'created_at', 'updated_at', 'sent_at']);
    if (q.state) query = query.where('state', '=', q.state);
    let count = this.db.selectFrom('outbox_messages').select((eb) => eb.fn.countAll<number>().as('n'));
    if (q.state) count = count.where('state', '=', q.state);
    const [rows, total] = await Promise.all([query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute(), count.executeTakeFirstOrThrow()]);
    return { total: Number(total.n), rows: rows.map((r) => ({ ...r, attempts: Number(r.attempts), created_at: Number(r.created_at), updated_at: Number(r.updated_at), sent_at: r.sent_at === null ? null : Number(r.sent_at) })) };
  }

  /** An attempt's outcome, only while the message is still pending (a resend may have reset it). */
  async recordAttempt(id: string, outcome: { state: MessageState; error: string | null }, now: number): Promise<void> {
    await this.db
      .updateTable('outbox_messages')
      .set((eb) => ({ state: outcome.state, attempts: eb('attempts', '+', 1), last_error: outcome.error, updated_at: now, sent_at: outcome.state === 'sent' ? now : null }))
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .execute();
  }

  /** Kept: no way to send is configured; the body stays readable to the operator. */
  async keep(id: string, now: number): Promise<void> {
    await this.db.updateTable('outbox_messages').set({ state: 'kept', updated_at: now }).where('id', '=', id).where('state', '=', 'pending').execute();
  }
}

/** A message due again (the operator's resend): pending with a fresh count, and its job, in `db` (the audit's transaction). */
export async function requeueMessage(db: Executor, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('outbox_messages').set({ state: 'pending', attempts: 0, last_error: null, updated_at: now }).where('id', '=', id).where('state', '!=', 'pending').executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  await enqueueJob(db, { kind: JOB_KINDS.sendMessage, payload: sendMessagePayload(id), runAt: now }, now);
  return true;
}
