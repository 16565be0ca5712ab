import type { Logger } from 'pino';
import type { OutboxRepo } from '../store/outbox-repo.js';
import type { JobHandler } from '../worker/job-contract.js';
import type { ChatSender, Clock, Mailer } from './ports.js';

/** Attempts at one message before it is marked failed (the operator may resend it). */
export const MESSAGE_MAX_ATTEMPTS = 8;

/** The wait after the n-th failed attempt: 30 s, doubling, at most an hour (8 attempts span ~1.5 h). */
export const messageRetryDelayMs = (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);

/**
 * Sends an outbox message (the handler of send_message jobs): one attempt a run, the
 * outcome on the message, the next attempt after a growing wait. With no mailer (no SMTP
 * settings; for a chat message, no Telegram settings) the message is kept, readable in the console. The Message-ID is the message's
 * own, so a send repeated after a crash between the server's acceptance and the write is
 * recognisable as the same message.
 */
export class SendMessage {
  constructor(private readonly deps: { outbox: OutboxRepo; mailer: Mailer | null; chat?: ChatSender | null; from: string; clock: Clock; logger?: Logger }) {}

  readonly handle: JobHandler<{ messageId: string }> = async (job) => {
    const { outbox, mailer, clock, logger } = this.deps;
    const m = await outbox.get(job.payload.messageId);
    if (!m || m.state !== 'pending') return { status: 'done' };
    const chat = m.recipient_kind === 'telegram' ? this.deps.chat ?? null : null;
    if (m.recipient_kind === 'telegram' ? !chat : !mailer) {
      await outbox.keep(m.id, clock.now());
      return { status: 'done' };
    }
    const attempt = Number(m.attempts) + 1;
    try {
      if (chat) await chat.send(m.to_address, m.body_text);
      else await mailer!.send({ to: m.to_address, subject: m.subject, text: m.body_text, html: m.body_html, messageId: `<${m.id}@${this.domain()}>` });
    } catch (err) {
      const error = String((err as Error).message ?? err).slice(0, 500);
      const last = attempt >= MESSAGE_MAX_ATTEMPTS;
      await outbox.recordAttempt(m.id, { state: last ? 'failed' : 'pending', error }, clock.now());
      // No address and no body in the log: ids and the error.
      logger?.warn({ message_id: m.id, template: m.template, attempt, err: error }, last ? 'message not sent; gave up' : 'message not sent; retried later');
      return last ? { status: 'done' } : { status: 'retry', retryAt: clock.now() + messageRetryDelayMs(attempt), error };
    }
    await outbox.recordAttempt(m.id, { state: 'sent', error: null }, clock.now());
    logger?.info({ message_id: m.id, template: m.template, attempt }, 'message sent');
    return { status: 'done' };
  };

  private domain(): string {
    return /@([^>\s]+)>?\s*$/.exec(this.deps.from)?.[1] ?? 'topup.local';
  }
}
