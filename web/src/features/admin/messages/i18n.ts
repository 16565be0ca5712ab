import type { Messages } from '../../../shared/i18n/index.js';

export const en = {
  title: 'Messages',
  intro: 'Email the platform writes to people, and the operator alerts it writes to the Telegram chat. Without SMTP settings no email is sent: messages are kept here, readable, so you see what would have been sent.',
  telegramChat: 'Telegram chat {{chat}}',
  state: 'State',
  when: 'Written',
  to: 'To',
  subject: 'Subject',
  attempts: 'Attempts',
  error: 'Last error',
  resend: 'Send again',
  show: 'Read',
  states: { pending: 'Sending', sent: 'Sent', kept: 'Kept (no SMTP)', failed: 'Failed' },
};
export const id: Messages<typeof en> = {
  title: 'Pesan',
  intro: 'Email yang ditulis platform untuk orang, dan peringatan operator yang ditulisnya ke obrolan Telegram. Tanpa pengaturan SMTP tidak ada email yang dikirim: pesan disimpan di sini dan dapat dibaca, sehingga Anda melihat apa yang akan dikirim.',
  telegramChat: 'Obrolan Telegram {{chat}}',
  state: 'Status',
  when: 'Ditulis',
  to: 'Kepada',
  subject: 'Subjek',
  attempts: 'Percobaan',
  error: 'Galat terakhir',
  resend: 'Kirim ulang',
  show: 'Baca',
  states: { pending: 'Sedang dikirim', sent: 'Terkirim', kept: 'Disimpan (tanpa SMTP)', failed: 'Gagal' },
};
export const MESSAGE_STATES = Object.keys(en.states) as (keyof typeof en.states)[];
