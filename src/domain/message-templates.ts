import type { Language } from '../store/schema.js';
import type { AlertKind } from './operator-alerts.js';

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
  | { template: 'operator_alert'; alert: AlertKind; params: Record<string, string | number>; link: string }
  | { template: 'callback_failed'; shopName: string; orderCode: string; refId: string; error: string; link: string }
  | { template: 'callback_digest'; shopName: string; count: number; day: string; link: string }
  | { template: 'new_sign_in'; device: string; ip: string; at: string; link: string }
  | { template: 'deposit_credited'; shopName: string; depositId: string; amount: string; balance: string; link: string }
  | { template: 'low_balance'; shopName: string; balance: string; threshold: string; link: string };

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}

export const LANGUAGES: readonly Language[] = ['en', 'id'];

export type Template = MessageOf['template'];

/**
 * The messages a person may turn off, by who receives them. The rest are essential: an
 * account's status, invitations and password resets are sent whatever the settings.
 */
export const OPTIONAL_MESSAGES: Record<'operator' | 'reseller', readonly Template[]> = {
  operator: ['shop_registered', 'operator_alert'],
  reseller: ['callback_failed', 'callback_digest', 'deposit_credited', 'low_balance'],
};
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
    case 'operator_alert':
      return alertParts(m.alert, m.params, m.link, en);
    case 'callback_failed':
      return en
        ? { subject: `${m.shopName}: an order callback could not be delivered`, lines: [`The callback of order ${m.orderCode} (ref_id ${m.refId}) failed 4 times and was given up: ${m.error}.`, 'Check that your callback URL answers 2xx, then resend the callback from the order, or poll GET /order-status. Further failures today are summed up in one email tomorrow.'], link: m.link, action: 'Open the order' }
        : { subject: `${m.shopName}: callback pesanan tidak dapat dikirim`, lines: [`Callback pesanan ${m.orderCode} (ref_id ${m.refId}) gagal 4 kali dan dihentikan: ${m.error}.`, 'Pastikan URL callback Anda menjawab 2xx, lalu kirim ulang callback dari pesanan, atau gunakan GET /order-status. Kegagalan berikutnya hari ini dirangkum dalam satu email besok.'], link: m.link, action: 'Buka pesanan' };
    case 'callback_digest':
      return en
        ? { subject: `${m.shopName}: ${m.count} order callbacks failed on ${m.day}`, lines: [`${m.count} order callbacks could not be delivered on ${m.day} (UTC) and were given up.`, 'The orders list shows them; resend each, or poll GET /order-status.'], link: m.link, action: 'Open the callback URL settings' }
        : { subject: `${m.shopName}: ${m.count} callback pesanan gagal pada ${m.day}`, lines: [`${m.count} callback pesanan tidak dapat dikirim pada ${m.day} (UTC) dan dihentikan.`, 'Daftar pesanan menampilkannya; kirim ulang masing-masing, atau gunakan GET /order-status.'], link: m.link, action: 'Buka pengaturan URL callback' };
    case 'new_sign_in':
      return en
        ? { subject: 'New sign-in to your account', lines: [`Your account was signed in to from a new device: ${m.device}, address ${m.ip}, at ${m.at} (UTC).`, 'If it was you, there is nothing to do. If not, end that session on the Security page and change your password.'], link: m.link, action: 'Open Security' }
        : { subject: 'Masuk baru ke akun Anda', lines: [`Akun Anda dimasuki dari perangkat baru: ${m.device}, alamat ${m.ip}, pada ${m.at} (UTC).`, 'Jika itu Anda, tidak perlu melakukan apa pun. Jika bukan, akhiri sesi tersebut di halaman Keamanan dan ubah kata sandi Anda.'], link: m.link, action: 'Buka Keamanan' };
    case 'deposit_credited':
      return en
        ? { subject: `${m.shopName}: deposit ${m.depositId} credited`, lines: [`Your deposit ${m.depositId} of ${m.amount} was credited. Your balance is now ${m.balance}.`], link: m.link, action: 'Open the wallet' }
        : { subject: `${m.shopName}: deposit ${m.depositId} masuk`, lines: [`Deposit Anda ${m.depositId} sebesar ${m.amount} telah masuk. Saldo Anda sekarang ${m.balance}.`], link: m.link, action: 'Buka dompet' };
    case 'low_balance':
      return en
        ? { subject: `${m.shopName}: balance below ${m.threshold}`, lines: [`Your balance is ${m.balance}, below the ${m.threshold} you set. Orders are refused once it cannot pay for them.`], link: m.link, action: 'Top up' }
        : { subject: `${m.shopName}: saldo di bawah ${m.threshold}`, lines: [`Saldo Anda ${m.balance}, di bawah ${m.threshold} yang Anda tetapkan. Pesanan ditolak bila saldo tidak cukup.`], link: m.link, action: 'Isi saldo' };
  }
}

/** An operator alert: what happened, and the page that resolves it. */
function alertParts(alert: AlertKind, p: Record<string, string | number>, link: string, en: boolean): Parts {
  const v = (k: string) => String(p[k] ?? '');
  switch (alert) {
    case 'supplier_balance_low':
      return en
        ? { subject: `Supplier ${v('supplier')}: deposit below its threshold`, lines: [`The deposit at ${v('supplier')} is ${v('balance')}, below the threshold of ${v('threshold')}.`, 'Orders it cannot pay for will fail over to other routes or be refused. Top up the deposit at the supplier.'], link, action: 'Open supply' }
        : { subject: `Pemasok ${v('supplier')}: deposit di bawah ambang`, lines: [`Deposit di ${v('supplier')} adalah ${v('balance')}, di bawah ambang ${v('threshold')}.`, 'Pesanan yang tidak dapat dibayar akan dialihkan ke rute lain atau ditolak. Isi ulang deposit di pemasok.'], link, action: 'Buka pasokan' };
    case 'supplier_gate_closed':
      return en
        ? { subject: `Supplier ${v('supplier')} stopped taking orders`, lines: [`The platform stopped sending orders to ${v('supplier')}${v('reason') ? `: ${v('reason')}` : ''}.`, 'Its orders go to other routes meanwhile. You will be told when it takes orders again.'], link, action: 'Open supply' }
        : { subject: `Pemasok ${v('supplier')} berhenti menerima pesanan`, lines: [`Platform berhenti mengirim pesanan ke ${v('supplier')}${v('reason') ? `: ${v('reason')}` : ''}.`, 'Sementara itu pesanannya dikirim ke rute lain. Anda akan diberi tahu saat pemasok menerima pesanan lagi.'], link, action: 'Buka pasokan' };
    case 'supplier_gate_reopened':
      return en
        ? { subject: `Supplier ${v('supplier')} takes orders again`, lines: [`${v('supplier')} answered again and takes orders.`], link, action: 'Open supply' }
        : { subject: `Pemasok ${v('supplier')} menerima pesanan lagi`, lines: [`${v('supplier')} menjawab lagi dan menerima pesanan.`], link, action: 'Buka pasokan' };
    case 'attention_piling':
      return en
        ? { subject: `${v('count')} things wait for attention`, lines: [`${v('count')} orders and items wait for an operator's decision.`], link, action: 'Open attention' }
        : { subject: `${v('count')} hal menunggu perhatian`, lines: [`${v('count')} pesanan dan item menunggu keputusan operator.`], link, action: 'Buka perhatian' };
    case 'deposits_unmatched':
      return en
        ? { subject: `Deposit money unmatched for ${v('minutes')} minutes`, lines: [`${v('count')} incoming transfers match no deposit ticket; the oldest arrived ${v('minutes')} minutes ago.`, 'Assign each to its shop\'s ticket, or mark it handled outside the platform.'], link, action: 'Open deposits' }
        : { subject: `Dana deposit belum cocok selama ${v('minutes')} menit`, lines: [`${v('count')} transfer masuk tidak cocok dengan tiket deposit mana pun; yang tertua tiba ${v('minutes')} menit lalu.`, 'Tetapkan masing-masing ke tiket tokonya, atau tandai sudah ditangani di luar platform.'], link, action: 'Buka deposit' };
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
