import * as apiErrors from '../../features/api-errors/i18n.js';
import * as auth from '../../features/auth/i18n.js';
import * as developers from '../../features/developers/i18n.js';
import * as home from '../../features/home/i18n.js';
import * as orders from '../../features/orders/i18n.js';
import * as products from '../../features/products/i18n.js';
import * as settings from '../../features/settings/i18n.js';
import * as wallet from '../../features/wallet/i18n.js';
import * as common from '../../shared/i18n/common.js';
import * as nav from './nav-i18n.js';

/** Every message of the dashboard, by feature (each feature owns its keys). */
const pick = (lang: 'en' | 'id') => ({
  ...common[lang],
  ...auth[lang],
  ...settings[lang],
  nav: nav[lang],
  home: home[lang],
  orders: orders[lang],
  wallet: wallet[lang],
  products: products[lang],
  developers: developers[lang],
  apiErrors: apiErrors[lang],
});
export const messages = { en: pick('en'), id: pick('id') };
