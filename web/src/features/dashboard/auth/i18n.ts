import type { Messages } from '../../../shared/i18n/index.js';

export const en = {
  appName: 'Reseller dashboard',
  email: 'Email',
  password: 'Password',
  name: 'Business name',
  signIn: {
    title: 'Sign in',
    submit: 'Sign in',
    noAccount: 'No account yet?',
    register: 'Register',
    expired: 'Your session ended. Sign in to continue where you were.',
  },
  register: {
    title: 'Register',
    submit: 'Create account',
    passwordHint: 'At least 10 characters.',
    haveAccount: 'Already registered?',
  },
  registered: {
    title: 'Your account awaits approval',
    text: 'Thank you for registering. The operator reviews every new account and assigns its price tier; until then you can sign in and look around, but the API refuses orders. You will be able to generate API keys once approved.',
    continue: 'Go to the dashboard',
  },
  invitation: {
    title: 'Accept your invitation',
    text: 'Choose the password you will sign in with.',
    submit: 'Set password and sign in',
    noToken: 'This invitation link has no token. Open the link from your invitation email again.',
  },
  changePassword: {
    title: 'Change password',
    current: 'Current password',
    new: 'New password',
    submit: 'Change password',
    done: 'Password changed. Your other sessions were signed out.',
  },
};
export const id: Messages<typeof en> = {
  appName: 'Dasbor reseller',
  email: 'Email',
  password: 'Kata sandi',
  name: 'Nama usaha',
  signIn: {
    title: 'Masuk',
    submit: 'Masuk',
    noAccount: 'Belum punya akun?',
    register: 'Daftar',
    expired: 'Sesi Anda telah berakhir. Masuk untuk melanjutkan.',
  },
  register: {
    title: 'Daftar',
    submit: 'Buat akun',
    passwordHint: 'Minimal 10 karakter.',
    haveAccount: 'Sudah terdaftar?',
  },
  registered: {
    title: 'Akun Anda menunggu persetujuan',
    text: 'Terima kasih telah mendaftar. Operator meninjau setiap akun baru dan menetapkan tingkat harganya; sementara itu Anda dapat masuk dan melihat-lihat, tetapi API menolak pesanan. Anda dapat membuat kunci API setelah disetujui.',
    continue: 'Buka dasbor',
  },
  invitation: {
    title: 'Terima undangan Anda',
    text: 'Pilih kata sandi untuk masuk.',
    submit: 'Simpan kata sandi dan masuk',
    noToken: 'Tautan undangan ini tidak memiliki token. Buka lagi tautan dari email undangan Anda.',
  },
  changePassword: {
    title: 'Ubah kata sandi',
    current: 'Kata sandi saat ini',
    new: 'Kata sandi baru',
    submit: 'Ubah kata sandi',
    done: 'Kata sandi diubah. Sesi Anda yang lain telah dikeluarkan.',
  },
};
