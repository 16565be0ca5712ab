import type { Messages } from '../../../shared/i18n/index.js';

export const en = {
  title: 'supply',
};
export const id: Messages<typeof en> = {
  title: 'supply',
};
