import type { Messages } from '../../../shared/i18n/index.js';

export const en = {
  title: 'Audit log',
  when: 'When',
  operator: 'Operator',
  approvedBy: 'approved by {{who}}',
  action: 'Action',
  targetKind: 'Target kind',
  targetId: 'Target id',
  target: 'Target',
  /** Every action the service writes (docs/operator-api.md, "Audit log"), nested as the code's dots. */
  actions: {
    operator: { create: 'Operator added', change_password: 'Password changed', reset_password: 'Password reset', two_factor_on: 'Two-factor sign-in turned on', two_factor_off: 'Two-factor sign-in turned off', end_sessions: 'Sessions ended' },
    reseller: {
      create: 'Reseller created', approve: 'Reseller approved', set_tier: 'Tier changed', suspend: 'Reseller suspended', reactivate: 'Reseller reactivated',
      api_key_issue: 'API key issued', api_key_revoke: 'API key revoked', whitelist_add: 'IP address added', whitelist_remove: 'IP address removed',
      set_callback_url: 'Callback URL set', invite: 'Invitation sent', invitation_revoke: 'Invitation revoked',
      catalog: { assign: 'Catalog assigned', unassign: 'Catalog unassigned' },
    },
    wallet: { credit: 'Wallet credited', debit: 'Wallet debited' },
    order: { refund: 'Order refunded by hand', resend_callback: 'Callback resent' },
    category: { create: 'Category added', update: 'Category changed' },
    product: { create: 'Product added', update: 'Product changed' },
    catalog: { create: 'Catalog added', prices: { set: 'Catalog prices changed' } },
    supplier: { create: 'Supplier added', update: 'Supplier changed', sync: 'Supplier price list synced', credentials: 'Supplier credentials changed' },
    approval: { request: 'Sent for approval', approve: 'Approved', reject: 'Rejected', cancel: 'Approval request withdrawn', fail: 'Approved but could not be applied' },
    route: { create: 'Route added', update: 'Route changed', delete: 'Route removed', below_cost: 'Price below route cost' },
    sandbox: { update: 'Sandbox switch changed' },
    supply: { refresh: 'Supply refreshed' },
    message: { resend: 'Message resent' },
    deposit: {
      mark_paid: 'Deposit marked paid', assign_mutation: 'Unmatched money assigned to a deposit', settings: 'Deposit settings changed',
      webhook_secret: 'Mutation webhook secret set', statement_import: 'Bank statement imported',
    },
    bank_account: { create: 'Bank account added', update: 'Bank account changed', statement_mapping: 'Statement columns saved' },
    bank_mutation: { handle: 'Unmatched money handled outside' },
  },
  kinds: {
    reseller: 'Reseller', order: 'Order', catalog: 'Catalog', category: 'Category', product: 'Product',
    supplier: 'Supplier', route: 'Route', sandbox: 'Sandbox', supply: 'Supply', operator: 'Operator', message: 'Message', approval_request: 'Approval request',
    store: 'Store settings', bank_account: 'Bank account', bank_mutation: 'Bank mutation',
  },
};
export const id: Messages<typeof en> = {
  title: 'Log audit',
  when: 'Waktu',
  operator: 'Operator',
  approvedBy: 'disetujui oleh {{who}}',
  action: 'Tindakan',
  targetKind: 'Jenis target',
  targetId: 'ID target',
  target: 'Target',
  actions: {
    operator: { create: 'Operator ditambahkan', change_password: 'Kata sandi diubah', reset_password: 'Kata sandi diatur ulang', two_factor_on: 'Verifikasi dua langkah diaktifkan', two_factor_off: 'Verifikasi dua langkah dinonaktifkan', end_sessions: 'Sesi diakhiri' },
    reseller: {
      create: 'Reseller dibuat', approve: 'Reseller disetujui', set_tier: 'Tingkat diubah', suspend: 'Reseller ditangguhkan', reactivate: 'Reseller diaktifkan kembali',
      api_key_issue: 'Kunci API diterbitkan', api_key_revoke: 'Kunci API dicabut', whitelist_add: 'Alamat IP ditambahkan', whitelist_remove: 'Alamat IP dihapus',
      set_callback_url: 'URL callback diatur', invite: 'Undangan dikirim', invitation_revoke: 'Undangan dicabut',
      catalog: { assign: 'Katalog ditetapkan', unassign: 'Katalog dilepas' },
    },
    wallet: { credit: 'Dompet dikredit', debit: 'Dompet didebit' },
    order: { refund: 'Dana pesanan dikembalikan manual', resend_callback: 'Callback dikirim ulang' },
    category: { create: 'Kategori ditambahkan', update: 'Kategori diubah' },
    product: { create: 'Produk ditambahkan', update: 'Produk diubah' },
    catalog: { create: 'Katalog ditambahkan', prices: { set: 'Harga katalog diubah' } },
    supplier: { create: 'Pemasok ditambahkan', update: 'Pemasok diubah', sync: 'Daftar harga pemasok disinkronkan', credentials: 'Kredensial pemasok diubah' },
    approval: { request: 'Dikirim untuk persetujuan', approve: 'Disetujui', reject: 'Ditolak', cancel: 'Permintaan persetujuan ditarik', fail: 'Disetujui tetapi tidak dapat diterapkan' },
    route: { create: 'Rute ditambahkan', update: 'Rute diubah', delete: 'Rute dihapus', below_cost: 'Harga di bawah biaya rute' },
    sandbox: { update: 'Sakelar sandbox diubah' },
    supply: { refresh: 'Pasokan diperbarui' },
    message: { resend: 'Pesan dikirim ulang' },
    deposit: {
      mark_paid: 'Deposit ditandai lunas', assign_mutation: 'Dana belum cocok ditetapkan ke deposit', settings: 'Pengaturan deposit diubah',
      webhook_secret: 'Rahasia webhook mutasi diatur', statement_import: 'Mutasi rekening diimpor',
    },
    bank_account: { create: 'Rekening bank ditambahkan', update: 'Rekening bank diubah', statement_mapping: 'Kolom mutasi disimpan' },
    bank_mutation: { handle: 'Dana belum cocok ditangani di luar' },
  },
  kinds: {
    reseller: 'Reseller', order: 'Pesanan', catalog: 'Katalog', category: 'Kategori', product: 'Produk',
    supplier: 'Pemasok', route: 'Rute', sandbox: 'Sandbox', supply: 'Pasokan', operator: 'Operator', message: 'Pesan', approval_request: 'Permintaan persetujuan',
    store: 'Pengaturan toko', bank_account: 'Rekening bank', bank_mutation: 'Mutasi bank',
  },
};

type Tree = { [k: string]: string | Tree };
const codes = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : codes(v, `${prefix}${k}.`)));

/** The action codes the filter offers (the API takes any text; these are the ones written). */
export const ACTION_CODES = codes(en.actions);
export const TARGET_KINDS = Object.keys(en.kinds);
