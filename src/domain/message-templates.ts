import type { Language } from '../store/schema.js';

/**
 * What each message says, in English and Indonesian: a subject, a plain-text body and a
 * simple HTML body from the same lines. Pure: the caller passes the links, already built
 * from the public base URL.
 */
export type MessageOf =
  | { template: 'shop_status'; shopName: string; status: 'approved' | 'suspended' | 'reactivated'; link: string }
  | { template: 'shop_registered'; shopName: string; shopEmail: string; link: string }
  | { template: 'reseller_invitation'; shopName: string; link: string; expiresInDays: number }
  | { template: 'password_reset'; link: string; expiresInMinutes: number }
  | { template: 'new_sign_in'; device: string; ip: string; at: string; link: string };

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}

export const LANGUAGES: readonly Language[] = ['en', 'id'];
export const asLanguage = (v: string | null | undefined): Language => (v === 'id' ? 'id' : 'en');

/** Each template: a subject, paragraphs, and the one link it leads to with its label. */
type Parts = { subject: string; lines: string[]; link: string; action: string };

const STATUS_EN = { approved: 'approved', suspended: 'suspended', reactivated: 'reactivated' } as const;
const STATUS_ID = { approved: 'disetujui', suspended: 'ditangguhkan', reactivated: 'diaktifkan kembali' } as const;

function parts(m: MessageOf, lang: Language): Parts {
  const en = lang === 'en';
  switch (m.template) {
    case 'shop_status': {
      const subject = en ? `Your shop ${m.shopName} was ${STATUS_EN[m.status]}` : `Toko Anda ${m.shopName} telah ${STATUS_ID[m.status]}`;
      const detail = {
        approved: en ? 'You can now create API keys and place orders.' : 'Sekarang Anda dapat membuat kunci API dan melakukan pesanan.',
        suspended: en ? 'Orders through the API are refused until the operator reactivates the shop. Reply to this email to ask why.' : 'Pesanan melalui API ditolak sampai operator mengaktifkan kembali toko. Balas email ini untuk menanyakan alasannya.',
        reactivated: en ? 'Orders through the API are accepted again.' : 'Pesanan melalui API diterima kembali.',
      }[m.status];
      return { subject, lines: [subject + '.', detail], link: m.link, action: en ? 'Open the dashboard' : 'Buka dasbor' };
    }
    case 'shop_registered':
      return en
        ? { subject: `New shop registered: ${m.shopName}`, lines: [`${m.shopName} (${m.shopEmail}) registered and waits for approval.`], link: m.link, action: 'Review it in the console' }
        : { subject: `Toko baru terdaftar: ${m.shopName}`, lines: [`${m.shopName} (${m.shopEmail}) mendaftar dan menunggu persetujuan.`], link: m.link, action: 'Tinjau di konsol' };
    case 'reseller_invitation':
      return en
        ? { subject: `You are invited to the dashboard of ${m.shopName}`, lines: [`Set your password with the link below. It works once, for ${m.expiresInDays} days.`], link: m.link, action: 'Set your password' }
        : { subject: `Anda diundang ke dasbor ${m.shopName}`, lines: [`Atur kata sandi Anda melalui tautan di bawah. Tautan berlaku sekali, selama ${m.expiresInDays} hari.`], link: m.link, action: 'Atur kata sandi' };
    case 'password_reset':
      return en
        ? { subject: 'Reset your password', lines: [`Someone asked to reset the password of this account. The link works once, for ${m.expiresInMinutes} minutes.`, 'If it was not you, ignore this email: your password stays as it is.'], link: m.link, action: 'Choose a new password' }
        : { subject: 'Atur ulang kata sandi Anda', lines: [`Seseorang meminta pengaturan ulang kata sandi akun ini. Tautan berlaku sekali, selama ${m.expiresInMinutes} menit.`, 'Jika bukan Anda, abaikan email ini: kata sandi Anda tetap sama.'], link: m.link, action: 'Pilih kata sandi baru' };
    case 'new_sign_in':
      return en
        ? { subject: 'New sign-in to your account', lines: [`Your account was signed in to from a new device: ${m.device}, address ${m.ip}, at ${m.at} (UTC).`, 'If it was you, there is nothing to do. If not, end that session on the Security page and change your password.'], link: m.link, action: 'Open Security' }
        : { subject: 'Masuk baru ke akun Anda', lines: [`Akun Anda dimasuki dari perangkat baru: ${m.device}, alamat ${m.ip}, pada ${m.at} (UTC).`, 'Jika itu Anda, tidak perlu melakukan apa pun. Jika bukan, akhiri sesi tersebut di halaman Keamanan dan ubah kata sandi Anda.'], link: m.link, action: 'Buka Keamanan' };
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function renderMessage(m: MessageOf, lang: Language): RenderedMessage {
  const p = parts(m, lang);
  const text = [...p.lines, '', `${p.action}: ${p.link}`, ''].join('\n');
  const html =
    `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">` +
    p.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
    `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.action)}</a></p>` +
    `<p style="color:#666;font-size:12px">${escapeHtml(p.link)}</p></body></html>`;
  return { subject: p.subject, text, html };
}
