import * as approvals from '../../features/admin/approvals/i18n.js';
import * as audit from '../../features/admin/audit/i18n.js';
import * as auth from '../../features/admin/auth/i18n.js';
import * as catalog from '../../features/admin/catalog/i18n.js';
import * as home from '../../features/admin/home/i18n.js';
import * as outbox from '../../features/admin/messages/i18n.js';
import * as gatewayAdmin from '../../features/admin/deposits/gateway-i18n.js';
import * as orders from '../../features/admin/orders/i18n.js';
import * as reports from '../../features/admin/reports/i18n.js';
import * as resellers from '../../features/admin/resellers/i18n.js';
import * as supply from '../../features/admin/supply/i18n.js';
import * as deposits from '../../features/admin/deposits/i18n.js';
import * as common from '../../shared/i18n/common.js';
import * as statement from '../../shared/statement/i18n.js';
import * as nav from './nav-i18n.js';

/** Every message of the operator console, by feature (each feature owns its keys). */
const pick = (lang: 'en' | 'id') => ({
  ...common[lang],
  ...auth[lang],
  nav: nav[lang],
  statement: statement[lang],
  home: home[lang],
  resellers: resellers[lang],
  orders: orders[lang],
  catalog: catalog[lang],
  supply: supply[lang],
  audit: audit[lang],
  messages: outbox[lang],
  deposits: deposits[lang],
  approvals: approvals[lang],
  gatewayAdmin: gatewayAdmin[lang],
  reports: reports[lang],
});
export const messages = { en: pick('en'), id: pick('id') };
