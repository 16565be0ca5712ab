import type { Messages } from '../../shared/i18n/index.js';

export const en = {
  home: 'Home',
  orders: 'Orders',
  wallet: 'Wallet',
  products: 'Products',
  settings: 'Settings',
  apiKeys: 'API Keys',
  ipWhitelist: 'IP Whitelist',
  callbackUrl: 'Callback URL',
  password: 'Change password',
  security: 'Security',
  developers: 'Developers',
  apiErrors: 'Recent API errors',
};
export const id: Messages<typeof en> = {
  home: 'Beranda',
  orders: 'Pesanan',
  wallet: 'Dompet',
  products: 'Produk',
  settings: 'Pengaturan',
  apiKeys: 'Kunci API',
  ipWhitelist: 'Whitelist IP',
  callbackUrl: 'URL Callback',
  password: 'Ubah kata sandi',
  security: 'Keamanan',
  developers: 'Pengembang',
  apiErrors: 'Error API terbaru',
};
