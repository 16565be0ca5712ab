import * as common from '../../shared/i18n/common.js';
import * as auth from '../../features/auth/i18n.js';
import * as home from '../../features/home/i18n.js';
import * as nav from './nav-i18n.js';
import * as orders from '../../features/orders/i18n.js';

/** Every message of the dashboard, by feature (each feature owns its keys). */
export const messages = {
  en: { ...common.en, ...auth.en, nav: nav.en, home: home.en, orders: orders.en },
  id: { ...common.id, ...auth.id, nav: nav.id, home: home.id, orders: orders.id },
};
