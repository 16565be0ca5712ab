import { asLanguage, OPTIONAL_MESSAGES, renderMessage, type MessageOf } from '../domain/message-templates.js';
import { AccountsRepo } from '../store/accounts-repo.js';
import type { Executor } from '../store/jobs-repo.js';
import { enqueueMessage } from '../store/outbox-repo.js';
import type { IdGenerator } from './ports.js';
import type { OperatorRole } from '../domain/operator-roles.js';

export interface Recipient {
  kind: 'operator' | 'reseller';
  id: string | null;
  email: string;
  /** The person's profile language; anything but a known one reads as English. */
  language: string | null | undefined;
}

/** The web pages messages link to (served under the public base URL). */
export const MESSAGE_PATHS = {
  dashboard: '/dashboard/',
  console: '/admin/',
  reseller: (id: string) => `/admin/resellers/${encodeURIComponent(id)}`,
  dashboardReset: '/dashboard/reset-password',
  consoleReset: '/admin/reset-password',
  dashboardSecurity: '/dashboard/settings/security',
  consoleSecurity: '/admin/security',
} as const;

/**
 * Writes messages to people into the outbox, in the transaction of the event that causes
 * them (`db`): rendered now in the recipient's language, sent later by the worker. Each
 * (event, recipient) is written once: `eventKey` names the event, the recipient is added.
 */
export class Notifier {
  constructor(private readonly deps: { publicBaseUrl: string; ids: IdGenerator }) {}

  /** An absolute link to a page of this service, from PUBLIC_BASE_URL. */
  link(path: string, query?: Record<string, string>): string {
    const q = query ? `?${new URLSearchParams(query).toString()}` : '';
    return `${this.deps.publicBaseUrl}${path}${q}`;
  }

  /** False when nothing was written: the event was told before, or the person turned this message off. */
  async send(db: Executor, to: Recipient, eventKey: string, message: MessageOf, now: number): Promise<boolean> {
    if (to.id !== null && OPTIONAL_MESSAGES[to.kind].includes(message.template) && (await new AccountsRepo(db).mutedOf(to.kind, to.id)).includes(message.template)) return false;
    const language = asLanguage(to.language);
    const r = renderMessage(message, language);
    return enqueueMessage(db, {
      id: this.deps.ids.uuid(), key: `${eventKey}|${to.kind}:${to.id ?? to.email}`, template: message.template,
      recipientKind: to.kind, recipientId: to.id, to: to.email, language, subject: r.subject, text: r.text, html: r.html,
    }, now);
  }

  /** The same event to every active operator (e.g. a shop registered), or to those holding one of `roles`. */
  async toOperators(db: Executor, eventKey: string, message: MessageOf, now: number, roles?: readonly OperatorRole[]): Promise<void> {
    const accounts = new AccountsRepo(db);
    const held = roles ? await accounts.allOperatorRoles() : null;
    const operators = (await accounts.listOperators()).filter((o) => o.disabled_at === null && (!held || (held.get(o.id) ?? []).some((r) => roles!.includes(r as OperatorRole))));
    for (const o of operators) await this.send(db, { kind: 'operator', id: o.id, email: o.email, language: o.language }, eventKey, message, now);
  }

  /** The event to the operator's chat (Telegram): the plain-text body, in the chat's language. */
  async toChat(db: Executor, chat: { id: string; language: string }, eventKey: string, message: MessageOf, now: number): Promise<boolean> {
    const language = asLanguage(chat.language);
    const r = renderMessage(message, language);
    return enqueueMessage(db, {
      id: this.deps.ids.uuid(), key: `${eventKey}|telegram:${chat.id}`, template: message.template,
      recipientKind: 'telegram', recipientId: null, to: chat.id, language, subject: r.subject, text: `${r.subject}\n\n${r.text}`, html: r.html,
    }, now);
  }
}
