import type { Messages } from '../../../shared/i18n/index.js';

export const en = {
  title: 'home',
};
export const id: Messages<typeof en> = {
  title: 'home',
};
