import type { Messages } from '../../shared/i18n/index.js';

export const en = {
  home: 'Home',
  approvals: 'Pending approvals',
  resellers: 'Resellers',
  orders: 'Orders',
  attention: 'Needs attention',
  catalog: 'Catalog',
  categories: 'Categories',
  products: 'Products',
  catalogs: 'Catalogs & prices',
  supply: 'Supply',
  audit: 'Audit log',
  messages: 'Messages',
  operators: 'Operators',
  account: 'Change password',
};
export const id: Messages<typeof en> = {
  home: 'Beranda',
  approvals: 'Menunggu persetujuan',
  resellers: 'Reseller',
  orders: 'Pesanan',
  attention: 'Perlu perhatian',
  catalog: 'Katalog',
  categories: 'Kategori',
  products: 'Produk',
  catalogs: 'Katalog & harga',
  supply: 'Pasokan',
  audit: 'Log audit',
  messages: 'Pesan',
  operators: 'Operator',
  account: 'Ubah kata sandi',
};
