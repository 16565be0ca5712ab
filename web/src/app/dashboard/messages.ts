import * as apiErrors from '../../features/dashboard/api-errors/i18n.js';
import * as auth from '../../features/dashboard/auth/i18n.js';
import * as developers from '../../features/dashboard/developers/i18n.js';
import * as home from '../../features/dashboard/home/i18n.js';
import * as orders from '../../features/dashboard/orders/i18n.js';
import * as products from '../../features/dashboard/products/i18n.js';
import * as settings from '../../features/dashboard/settings/i18n.js';
import * as wallet from '../../features/dashboard/wallet/i18n.js';
import * as gateway from '../../features/dashboard/wallet/gateway-i18n.js';
import * as common from '../../shared/i18n/common.js';
import * as statement from '../../shared/statement/i18n.js';
import * as nav from './nav-i18n.js';

/** Every message of the dashboard, by feature (each feature owns its keys). */
const pick = (lang: 'en' | 'id') => ({
  ...common[lang],
  ...auth[lang],
  ...settings[lang],
  nav: nav[lang],
  statement: statement[lang],
  home: home[lang],
  orders: orders[lang],
  wallet: wallet[lang],
  gateway: gateway[lang],
  products: products[lang],
  developers: developers[lang],
  apiErrors: apiErrors[lang],
});
export const messages = { en: pick('en'), id: pick('id') };
