import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A 10-character reference token; no redeemable value. */
export function referenceToken(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/**
 * serial_number formats (spec): instant "SRL-" + 10 characters, no '/'; voucher
 * "SRL-<token>/<redeemable code>" (the code is the text after the last '/').
 */
export function serialNumber(kind: 'instant' | 'voucher', token: string, voucherCode?: string): string {
  if (kind === 'voucher') {
    if (!voucherCode) throw new Error('a voucher serial needs the redeemable code');
    return `SRL-${token}/${voucherCode}`;
  }
  return `SRL-${token}`;
}
