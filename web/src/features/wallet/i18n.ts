import type { Messages } from '../../shared/i18n/index.js';

export const en = {
  title: 'Wallet',
  balance: 'Balance',
  ledger: 'Ledger',
  type: 'Type',
  amount: 'Amount',
  balanceAfter: 'Balance after',
  note: 'Note',
  order: 'Order',
  types: { order_debit: 'Order debit', order_refund: 'Order refund', credit: 'Credit', debit: 'Debit' },
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
  types: { order_debit: 'Debit pesanan', order_refund: 'Pengembalian pesanan', credit: 'Kredit', debit: 'Debit' },
};
