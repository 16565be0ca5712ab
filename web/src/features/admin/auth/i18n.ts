import type { Messages } from '../../../shared/i18n/index.js';

export const en = {
  appName: 'Operator console',
  actions: 'Actions',
  note: 'Note',
  auth: {
    signIn: 'Sign in',
    email: 'Email',
    password: 'Password',
    expired: 'Your session ended. Sign in to continue where you were.',
    changePassword: 'Change password',
    currentPassword: 'Current password',
    newPassword: 'New password',
    passwordHint: 'At least 10 characters. Your other sessions end.',
    passwordChanged: 'Password changed. Your other sessions were signed out.',
  },
  operators: {
    title: 'Operators',
    name: 'Name',
    added: 'Added',
    add: 'Add operator',
    passwordOnce: 'Password for {{email}}: shown once, pass it on safely',
    reset: 'Reset password',
    resetText: 'A new password is generated for {{email}} and every session of theirs ends.',
  },
};
export const id: Messages<typeof en> = {
  appName: 'Konsol operator',
  actions: 'Tindakan',
  note: 'Catatan',
  auth: {
    signIn: 'Masuk',
    email: 'Email',
    password: 'Kata sandi',
    expired: 'Sesi Anda telah berakhir. Masuk untuk melanjutkan.',
    changePassword: 'Ubah kata sandi',
    currentPassword: 'Kata sandi saat ini',
    newPassword: 'Kata sandi baru',
    passwordHint: 'Minimal 10 karakter. Sesi Anda yang lain berakhir.',
    passwordChanged: 'Kata sandi diubah. Sesi Anda yang lain telah dikeluarkan.',
  },
  operators: {
    title: 'Operator',
    name: 'Nama',
    added: 'Ditambahkan',
    add: 'Tambah operator',
    passwordOnce: 'Kata sandi untuk {{email}}: hanya ditampilkan sekali, sampaikan dengan aman',
    reset: 'Atur ulang kata sandi',
    resetText: 'Kata sandi baru dibuat untuk {{email}} dan semua sesinya berakhir.',
  },
};
