import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  matchTotp, normalizeRecoveryCode, operatorMustHaveTwoFactor, recoveryCodesFrom, rememberDeviceMs, totpCode, totpStep,
} from '../../src/domain/two-factor.js';

// RFC 6238 appendix B: the SHA-1 key is the ASCII of "12345678901234567890".
const RFC_SECRET = Secret.fromUTF8('12345678901234567890').base32;
const VECTORS: Array<[seconds: number, eightDigits: string]> = [
  [59, '94287082'], [1111111109, '07081804'], [1111111111, '14050471'], [1234567890, '89005924'], [2000000000, '69279037'],
];

describe('TOTP (RFC 6238)', () => {
  it('the eight-digit codes of the RFC test vectors, and our six digits are their last six', () => {
    for (const [seconds, code] of VECTORS) {
      const eight = new TOTP({ algorithm: 'SHA1', digits: 8, period: 30, secret: Secret.fromBase32(RFC_SECRET) }).generate({ timestamp: seconds * 1000 });
      expect(eight).toBe(code);
      expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code.slice(2));
    }
  });

  it('accepts the code of now and of one step either side, not two', () => {
    const now = 1111111111_000;
    const step = totpStep(now);
    expect(matchTotp(RFC_SECRET, '050471', now, null)).toBe(step);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now - 30_000), now, null)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now + 30_000), now, null)).toBe(step + 1);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now - 60_000), now, null)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now + 60_000), now, null)).toBeNull();
  });

  it('refuses a replay: a code of the last accepted step or an earlier one', () => {
    const now = 1234567890_000;
    const step = matchTotp(RFC_SECRET, '005924', now, null)!;
    expect(step).toBe(totpStep(now));
    expect(matchTotp(RFC_SECRET, '005924', now, step)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now - 30_000), now, step)).toBeNull();
    // The next step's code is still good after this one.
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now + 30_000), now, step)).toBe(step + 1);
  });

  it('refuses malformed and wrong codes, and ignores spaces', () => {
    const now = 59_000;
    expect(matchTotp(RFC_SECRET, '287 082', now, null)).toBe(1);
    for (const bad of ['', '28708', '2870822', 'abcdef', '287082x', '000000']) expect(matchTotp(RFC_SECRET, bad, now, null)).toBeNull();
  });
});

describe('recovery codes and policy', () => {
  it('ten codes from random bytes, read back in any case, with or without the dash', () => {
    const codes = recoveryCodesFrom(Buffer.from(Array.from({ length: 100 }, (_, i) => (i * 37) % 256)));
    expect(codes).toHaveLength(10);
    for (const c of codes) {
      expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(normalizeRecoveryCode(c.toUpperCase().replace('-', ' '))).toBe(c);
    }
    expect(normalizeRecoveryCode('short')).toBeNull();
    expect(normalizeRecoveryCode('00000-00000')).toBeNull();
  });

  it('owner and finance must have it under "roles"; everyone under "all"; nobody under "off"', () => {
    expect(operatorMustHaveTwoFactor('roles', ['owner'])).toBe(true);
    expect(operatorMustHaveTwoFactor('roles', ['support', 'finance'])).toBe(true);
    expect(operatorMustHaveTwoFactor('roles', ['support', 'catalog', 'viewer'])).toBe(false);
    expect(operatorMustHaveTwoFactor('all', ['viewer'])).toBe(true);
    expect(operatorMustHaveTwoFactor('off', ['owner'])).toBe(false);
  });

  it('a remembered device lasts at most 30 days', () => {
    expect(rememberDeviceMs(7)).toBe(7 * 86_400_000);
    expect(rememberDeviceMs(365)).toBe(30 * 86_400_000);
  });
});

describe('device summary', () => {
  it('names browser and system from a User-Agent, and never fails on odd ones', async () => {
    const { deviceSummary } = await import('../../src/domain/device.js');
    expect(deviceSummary('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36')).toBe('Chrome on Windows');
    expect(deviceSummary('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toBe('Safari on iPhone');
    expect(deviceSummary('Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0')).toBe('Firefox on Linux');
    expect(deviceSummary('curl/8.5.0')).toBe('curl');
    expect(deviceSummary('')).toBe('Unknown device');
    expect(deviceSummary(null)).toBe('Unknown device');
  });
});
