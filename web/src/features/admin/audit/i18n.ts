import type { Messages } from '../../../shared/i18n/index.js';

export const en = {
  title: 'Audit log',
  when: 'When',
  operator: 'Operator',
  action: 'Action',
  targetKind: 'Target kind',
  targetId: 'Target id',
  target: 'Target',
};
export const id: Messages<typeof en> = {
  title: 'Log audit',
  when: 'Waktu',
  operator: 'Operator',
  action: 'Tindakan',
  targetKind: 'Jenis target',
  targetId: 'ID target',
  target: 'Target',
};
