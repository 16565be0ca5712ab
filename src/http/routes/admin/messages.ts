import { Type } from '@sinclair/typebox';
import { pageMeta } from '../../../domain/list-query.js';
import { isoMillis } from '../../../domain/order.js';
import type { JsonApiKit } from '../../json-api.js';
import { IsoTime, Nullable, PageQueryProps } from '../../schemas.js';
import type { AdminApiDeps } from './index.js';

const strict = { additionalProperties: false } as const;
const State = Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('kept'), Type.Literal('failed')], {
  description: 'pending: to be sent (retried with a growing wait); sent: the SMTP server took it; kept: no SMTP configured, the message is only here; failed: gave up after 8 attempts',
});
const MessageProps = {
  id: Type.String(), template: Type.String({ description: 'shop_status, shop_registered, reseller_invitation, password_reset, new_sign_in, callback_failed, callback_digest, operator_alert' }),
  recipient_kind: Type.Union([Type.Literal('operator'), Type.Literal('reseller'), Type.Literal('telegram')], { description: 'telegram: the operator\'s chat (to is its chat id)' }), recipient_id: Nullable(Type.String()),
  to: Type.String(), language: Type.String({ description: 'en or id' }), subject: Type.String(), state: State,
  attempts: Type.Integer(), error: Nullable(Type.String({ description: "the last attempt's error" })),
  created_at: IsoTime(), updated_at: IsoTime(), sent_at: Nullable(IsoTime()),
};

type Row = { id: string; template: string; recipient_kind: 'operator' | 'reseller' | 'telegram'; recipient_id: string | null; to_address: string; language: string; subject: string; state: 'pending' | 'sent' | 'kept' | 'failed'; attempts: number | string; last_error: string | null; created_at: number | string; updated_at: number | string; sent_at: number | string | null };
const item = (m: Row) => ({
  id: m.id, template: m.template, recipient_kind: m.recipient_kind, recipient_id: m.recipient_id, to: m.to_address, language: m.language, subject: m.subject,
  state: m.state, attempts: Number(m.attempts), error: m.last_error, created_at: isoMillis(Number(m.created_at)), updated_at: isoMillis(Number(m.updated_at)),
  sent_at: m.sent_at === null ? null : isoMillis(Number(m.sent_at)),
});

/** /admin/v1/messages: the outbox of email to people, and resending. */
export function messageRoutes(kit: JsonApiKit<'admin'>, deps: AdminApiDeps) {
  const svc = deps.services.messages;

  kit.route({
    method: 'GET', url: '/messages', tag: 'Messages', paged: true,
    summary: 'Messages to people (email), newest first: to whom, about what, and how sending went',
    query: Type.Object({ state: Type.Optional(Type.String({ maxLength: 20, description: 'pending, sent, kept or failed' })), ...PageQueryProps }, strict),
    response: Type.Object({ messages: Type.Array(Type.Object(MessageProps)) }),
    errors: ['INVALID_PAGINATION'],
    handler: async ({ query }) => {
      const r = await svc.list(query);
      return { data: { messages: r.items.map(item) }, meta: pageMeta(r.total, r.page) };
    },
  });

  kit.route({
    method: 'GET', url: '/messages/:id', tag: 'Messages',
    summary: 'One message with its body, as sent or as it would be sent (a kept message: no SMTP configured)',
    description: 'The body of a password-reset message is withheld: its link is for its recipient only.',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, strict),
    response: Type.Object({ ...MessageProps, text: Type.String(), html: Nullable(Type.String()) }),
    errors: ['NOT_FOUND'],
    handler: async ({ params }) => {
      const m = await svc.get(params.id);
      return { data: { ...item(m), text: m.body_text, html: m.body_html } };
    },
  });

  kit.route({
    method: 'POST', url: '/messages/:id/resend', tag: 'Messages',
    summary: 'Send a message again (sent, kept or failed): it is pending with a fresh attempt count; audited as message.resend',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, strict),
    response: Type.Object(MessageProps),
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    handler: async ({ params, who }) => ({ data: item(await svc.resend(params.id, who.operatorId)) }),
  });
}
