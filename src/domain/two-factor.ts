import { Secret, TOTP } from 'otpauth';
import type { OperatorRole } from './operator-roles.js';

/**
 * Two-factor sign-in (TOTP, RFC 6238): the rules, without storage or clock. Codes are six
 * digits over 30-second steps (what every authenticator app shows for an otpauth:// URI),
 * HMAC-SHA-1. A code is accepted for its own step and one step either side (clocks drift,
 * people type slowly); the caller stores the accepted step so no code works twice.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now whose code is still accepted. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** The longest a "remember this device" choice lasts. */
export const REMEMBER_DEVICE_MAX_DAYS = 30;
/** How long the second step of a sign-in may wait after the password. */
export const PENDING_SIGN_IN_MS = 5 * 60_000;
/** Who must have two-factor sign-in (OPERATOR_2FA_REQUIRED). */
export type TwoFactorPolicy = 'roles' | 'all' | 'off';
export const TWO_FACTOR_POLICIES: readonly TwoFactorPolicy[] = ['roles', 'all', 'off'];
/** With the policy `roles`: the roles that can move money or change who can. */
export const TWO_FACTOR_ROLES: readonly OperatorRole[] = ['owner', 'finance'];

const ISSUER = 'Topup';

function totpOf(secretBase32: string, label = 'account') {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** A fresh random secret (160 bits, the RFC's SHA-1 key length), as base32 text. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app reads from the QR code. */
export const otpauthUri = (secretBase32: string, label: string) => totpOf(secretBase32, label).toString();

/** The time step of a moment (epoch ms). */
export const totpStep = (nowMs: number) => Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);

/** The code of a step (tests and the enrolment check). */
export const totpCode = (secretBase32: string, nowMs: number) => totpOf(secretBase32).generate({ timestamp: nowMs });

/**
 * The time step `code` belongs to, within one step of now, or null (wrong, malformed or
 * outside the window). Whether it was used before is the caller's check (lastStep).
 */
export function matchTotp(secretBase32: string, code: string, nowMs: number, lastStep: number | null): number | null {
  const token = normalizeTotpCode(code);
  if (token === null) return null;
  const delta = totpOf(secretBase32).validate({ token, timestamp: nowMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = totpStep(nowMs) + delta;
  // A step at or before the last accepted one is a replay (or an older code after a newer).
  return lastStep !== null && step <= lastStep ? null : step;
}

/** Digits only; spaces people type ("123 456") are dropped. */
export function normalizeTotpCode(code: string): string | null {
  const digits = code.replace(/\s+/g, '');
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(digits) ? digits : null;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // no 0/o, 1/l/i

/**
 * Ten recovery codes from random bytes: "xxxxx-xxxxx", ten letters of a 31-symbol alphabet
 * (about 49 bits each), so storing them as plain sha256 digests is enough.
 */
export function recoveryCodesFrom(random: Buffer): string[] {
  if (random.length < RECOVERY_CODE_COUNT * 10) throw new RangeError('need 10 random bytes per recovery code');
  const codes: string[] = [];
  for (let i = 0; i < RECOVERY_CODE_COUNT; i++) {
    const chars = [...random.subarray(i * 10, i * 10 + 10)].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]);
    codes.push(`${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`);
  }
  return codes;
}

/** A recovery code as typed (any case, with or without the dash or spaces) in its stored form, or null. */
export function normalizeRecoveryCode(code: string): string | null {
  const s = code.toLowerCase().replace(/[\s-]+/g, '');
  if (s.length !== 10 || [...s].some((c) => !RECOVERY_ALPHABET.includes(c))) return null;
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** Whether an operator with these roles must have two-factor sign-in under the policy. */
export function operatorMustHaveTwoFactor(policy: TwoFactorPolicy, roles: readonly OperatorRole[]): boolean {
  if (policy === 'off') return false;
  if (policy === 'all') return true;
  return roles.some((r) => TWO_FACTOR_ROLES.includes(r));
}

/** How long a remembered device is trusted: the days asked for, at most REMEMBER_DEVICE_MAX_DAYS. */
export const rememberDeviceMs = (days: number) => Math.min(Math.max(1, Math.floor(days)), REMEMBER_DEVICE_MAX_DAYS) * 86_400_000;

/**
 * What an operator who must enrol (and has not) may still do: see the session, enrol, see
 * and end their sessions, sign out, read their own profile and language (the console needs them to show the
 * enrolment page). Every other /admin/v1 route answers TWO_FACTOR_ENROLMENT_REQUIRED.
 */
export const ROUTES_BEFORE_ENROLMENT: ReadonlySet<string> = new Set([
  'GET /auth/session', 'POST /auth/sign-out', 'GET /me', 'GET /me/language', 'PUT /me/language', 'GET /roles',
  'GET /auth/two-factor', 'POST /auth/two-factor/enrolment', 'POST /auth/two-factor/enrolment/confirm',
  // Seeing and ending one's own sessions only helps (the Security page shows them).
  'GET /auth/sessions', 'DELETE /auth/sessions/{id}', 'GET /auth/sign-ins',
]);
