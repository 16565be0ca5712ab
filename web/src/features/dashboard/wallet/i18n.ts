import type { Messages } from '../../../shared/i18n/index.js';

export const en = {
  title: 'Wallet',
  balance: 'Balance',
  ledger: 'Ledger',
  type: 'Type',
  amount: 'Amount',
  balanceAfter: 'Balance after',
  note: 'Note',
  order: 'Order',
};
export const id: Messages<typeof en> = {
  title: 'Dompet',
  balance: 'Saldo',
  ledger: 'Buku besar',
  type: 'Jenis',
  amount: 'Jumlah',
  balanceAfter: 'Saldo setelah',
  note: 'Catatan',
  order: 'Pesanan',
};
