import type { Messages } from '../../../shared/i18n/index.js';

export const en = {
  title: 'Recent API errors',
  intro: 'The API requests of your integration that were refused in the last 7 days, newest first, so you can see why a call failed.',
  time: 'Time',
  endpoint: 'Endpoint',
  status: 'HTTP status',
  code: 'Error code',
  message: 'Message',
  ip: 'Source IP',
  requestId: 'Request id',
};
export const id: Messages<typeof en> = {
  title: 'Error API terbaru',
  intro: 'Permintaan API dari integrasi Anda yang ditolak dalam 7 hari terakhir, terbaru lebih dulu, agar Anda tahu mengapa panggilan gagal.',
  time: 'Waktu',
  endpoint: 'Endpoint',
  status: 'Status HTTP',
  code: 'Kode error',
  message: 'Pesan',
  ip: 'IP sumber',
  requestId: 'ID permintaan',
};
