import type { Messages } from '../../shared/i18n/index.js';

export const en = {
  home: 'Home',
  orders: 'Orders',
  wallet: 'Wallet',
  lowBalance: 'Low balance',
  products: 'Products',
  settings: 'Settings',
  apiKeys: 'API Keys',
  ipWhitelist: 'IP Whitelist',
  callbackUrl: 'Callback URL',
  password: 'Change password',
  email: 'Email',
  security: 'Security',
  developers: 'Developers',
  apiErrors: 'Recent API errors',
};
export const id: Messages<typeof en> = {
  home: 'Beranda',
  orders: 'Pesanan',
  wallet: 'Dompet',
  lowBalance: 'Saldo rendah',
  products: 'Produk',
  settings: 'Pengaturan',
  apiKeys: 'Kunci API',
  ipWhitelist: 'Whitelist IP',
  callbackUrl: 'URL Callback',
  password: 'Ubah kata sandi',
  email: 'Email',
  security: 'Keamanan',
  developers: 'Pengembang',
  apiErrors: 'Error API terbaru',
};
