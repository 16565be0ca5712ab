import { Type } from '@sinclair/typebox';
import type { MessageSettings } from '../../services/message-settings.js';
import type { JsonApiKit, JsonApiName } from '../json-api.js';

const OptionalMessages = Type.Object({
  enabled: Type.Record(Type.String(), Type.Boolean(), { description: 'each optional message you can receive, true when it is sent: shops callback_failed, callback_digest, deposit_credited and low_balance; operators shop_registered and operator_alert. Account status, invitations and password resets are always sent.' }),
}, { additionalProperties: false });

const Language = Type.Object({ language: Type.String({ description: 'en or id: the language of the email this person is sent', minLength: 2, maxLength: 2 }) }, { additionalProperties: false });

/** The signed-in person's message language and optional messages, the same on the operator and the dashboard API. */
export function messageSettingsRoutes<A extends JsonApiName>(kit: JsonApiKit<A>, svc: MessageSettings) {
  const kind = (kit.api === 'admin' ? 'operator' : 'reseller') as 'operator' | 'reseller';
  const idOf = (who: unknown) => (kind === 'operator' ? (who as { operatorId: string }).operatorId : (who as { resellerId: string }).resellerId);
  kit.route({
    method: 'GET', url: '/me/language', tag: 'Session',
    summary: 'The language of the email you are sent (en by default)',
    response: Language,
    handler: async ({ who }) => ({ data: { language: await svc.get(kind, idOf(who)) } }),
  });
  kit.route({
    method: 'PUT', url: '/me/language', tag: 'Session',
    summary: 'Choose the language of the email you are sent: en (English) or id (Indonesian)',
    body: Language,
    response: Language,
    handler: async ({ who, body }) => ({ data: { language: await svc.set(kind, idOf(who), body.language) } }),
  });
  kit.route({
    method: 'GET', url: '/me/notifications', tag: 'Session',
    summary: 'The optional messages you are sent (all on by default)',
    response: OptionalMessages,
    handler: async ({ who }) => ({ data: { enabled: await svc.optional(kind, idOf(who)) } }),
  });
  kit.route({
    method: 'PUT', url: '/me/notifications', tag: 'Session',
    summary: 'Turn optional messages on or off; those not named keep their setting',
    body: OptionalMessages,
    response: OptionalMessages,
    handler: async ({ who, body }) => ({ data: { enabled: await svc.setOptional(kind, idOf(who), body.enabled) } }),
  });
}
