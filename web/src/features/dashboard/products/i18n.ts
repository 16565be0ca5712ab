import type { Messages } from '../../../shared/i18n/index.js';

export const en = {
  title: 'Products',
  search: 'Search products',
  category: 'Category',
  code: 'Code',
  name: 'Name',
  price: 'Your price',
  status: 'State',
  statuses: { active: 'Available', inactive: 'Unavailable' },
  forms: 'Input forms',
  formsIntro: 'What the end user fills in for each category, as they would see it. Your order sends these values as target and zone.',
  preview: 'Preview of the {{name}} form',
  noForm: 'Vouchers need no input.',
};
export const id: Messages<typeof en> = {
  title: 'Produk',
  search: 'Cari produk',
  category: 'Kategori',
  code: 'Kode',
  name: 'Nama',
  price: 'Harga Anda',
  status: 'Status',
  statuses: { active: 'Tersedia', inactive: 'Tidak tersedia' },
  forms: 'Formulir input',
  formsIntro: 'Apa yang diisi pengguna akhir untuk setiap kategori, seperti yang mereka lihat. Pesanan Anda mengirim nilai ini sebagai target dan zone.',
  preview: 'Pratinjau formulir {{name}}',
  noForm: 'Voucher tidak memerlukan input.',
};
