import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { PasswordHasher } from '../adapters/password-hasher.js';
import type { RateLimiter } from '../adapters/rate-limiter.js';
import { OPERATOR_ROLES, type OperatorRole } from '../domain/operator-roles.js';
import { PENDING_SIGN_IN_MS, rememberDeviceMs } from '../domain/two-factor.js';
import { AppError } from '../errors.js';
import type { AccountsRepo } from '../store/accounts-repo.js';
import type { ResellerStatus } from '../store/resellers-repo.js';
import type { Clock } from './ports.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { TwoFactorRepo } from '../store/two-factor-repo.js';
import type { SecondFactor, TwoFactor } from './two-factor.js';
import type { SignInHistory } from './sign-in-history.js';

/** A signed-in operator (admin API). */
export interface OperatorPrincipal {
  kind: 'operator';
  operatorId: string;
  email: string;
  /** Read fresh on every request: a change of roles applies to sessions already open. */
  roles: OperatorRole[];
  /** Must turn two-factor sign-in on before anything else (OPERATOR_2FA_REQUIRED); read fresh too. */
  twoFactorMissing: boolean;
}

/** A signed-in reseller (dashboard API); status is read fresh on every request. */
export interface AccountPrincipal {
  kind: 'reseller';
  resellerId: string;
  email: string;
  status: ResellerStatus;
}

export type SessionPrincipal = OperatorPrincipal | AccountPrincipal;

/** Attempts a minute at a guessable check other than sign-in (an invitation token, a current password). */
export const ATTEMPTS_PER_MINUTE = 10;
/** Registrations allowed per minute from one address (a shop behind one NAT may register a few). */
export const REGISTRATIONS_PER_MINUTE = 20;

/** The browser a sign-in comes from: its device cookie (null: none) and User-Agent. */
export interface SignInDevice {
  token: string | null;
  userAgent: string;
}

/** A session opened; `device`: a new device cookie to set (this browser was not known for this person). */
export interface OpenedSession {
  token: string;
  expiresAt: number;
  subjectId: string;
  device: { token: string; maxAgeMs: number } | null;
}

/** The password was right and a second factor is needed: the challenge to answer it with. */
export interface PendingSignIn {
  challenge: string;
  expiresAt: number;
}

/** How long a device cookie lasts (what is remembered for two-factor is shorter: two_factor_until). */
export const DEVICE_COOKIE_MS = 365 * 86_400_000;

/** How fresh a session's "last used" is kept (one write a minute at most). */
export const LAST_USE_GRANULARITY_MS = 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The token of an "Authorization: Bearer <token>" header, or null. */
export const bearerToken = (authorization: string | undefined) => /^Bearer\s+(\S{1,200})$/i.exec(authorization ?? '')?.[1] ?? null;

/**
 * Bearer-token sessions of the operator and dashboard APIs. Tokens are random, shown once
 * at sign-in and stored only as their sha256. Wrong email and wrong password answer the
 * same way (and take the same time), and failed sign-ins are throttled (SignInThrottle).
 */
export class Sessions {
  private dummyHash: string | null = null;

  constructor(
    private readonly deps: {
      accounts: AccountsRepo; hasher: PasswordHasher; limiter: RateLimiter; clock: Clock; ttlMs: number; signIns: SignInThrottle;
      twoFactor: TwoFactor; devices: TwoFactorRepo; history: SignInHistory;
      /** Server key of the CSRF tokens (derived from the master key by the composition root). */
      csrfKey: Buffer;
    },
  ) {}

  /**
   * The CSRF token of a session: an HMAC of the token's stored hash under a server key. It is
   * stable for the session's life, needs no storage, and cannot be made without the key, so a
   * page of another site that can make the browser send the cookie cannot produce it.
   */
  csrfToken(sessionToken: string): string {
    return createHmac('sha256', this.deps.csrfKey).update(`csrf:${hashToken(sessionToken)}`).digest('base64url');
  }

  /** Whether `given` is the session's CSRF token (timing-safe). */
  csrfMatches(sessionToken: string, given: string | undefined): boolean {
    if (!given) return false;
    const want = Buffer.from(this.csrfToken(sessionToken));
    const got = Buffer.from(given);
    return got.length === want.length && timingSafeEqual(got, want);
  }

  async signIn(kind: 'operator' | 'reseller', email: unknown, password: unknown, ip: string, device: SignInDevice = { token: null, userAgent: '' }): Promise<{ session: OpenedSession } | { pending: PendingSignIn }> {
    if (typeof email !== 'string' || typeof password !== 'string') throw new AppError('VALIDATION_ERROR', 'email and password are required (strings)');
    const normalized = email.trim().toLowerCase();
    const attempt = await this.deps.signIns.admit(kind, normalized, ip);
    const { accounts, hasher } = this.deps;
    const record =
      kind === 'operator'
        ? await accounts.operatorByEmail(normalized).then((o) => (o && o.disabled_at === null ? { id: o.id, hash: o.password_hash } : null))
        : await accounts.resellerLogin(normalized).then((r) => (r && r.password_hash ? { id: r.id, hash: r.password_hash } : null));
    // Verify against a throwaway hash for unknown emails so both answers take as long. It is
    // made without scrypt: hashing it beside a verify would run two at once.
    this.dummyHash ??= hasher.unmatchable();
    const ok = await hasher.verify(password, record?.hash ?? this.dummyHash);
    if (!record || !ok) throw new AppError('INVALID_CREDENTIALS', 'email or password is wrong');
    await attempt.succeeded();
    // With two-factor on, no session yet: a challenge for the second step, unless this
    // browser is remembered for this person.
    if (await this.deps.twoFactor.enabled(kind, record.id)) {
      const remembered = device.token ? await this.deps.devices.device(hashToken(device.token)) : undefined;
      const now = this.deps.clock.now();
      const trusted = remembered && remembered.subject_kind === kind && remembered.subject_id === record.id && remembered.two_factor_until !== null && Number(remembered.two_factor_until) > now;
      if (!trusted) return { pending: this.challenge(kind, record.id, now) };
    }
    return { session: await this.open(kind, record.id, { ip, device }) };
  }

  /**
   * The second step: the challenge of the password step and a code (or recovery code).
   * `rememberDays` > 0 skips the second step on this browser for that long (at most 30 days).
   */
  async completeSignIn(kind: 'operator' | 'reseller', challenge: unknown, factor: SecondFactor, rememberDays: number, ip: string, device: SignInDevice): Promise<OpenedSession> {
    const subjectId = this.readChallenge(kind, challenge);
    await this.deps.twoFactor.verify(kind, subjectId, factor, ip);
    return this.open(kind, subjectId, { ip, device, rememberMs: rememberDays > 0 ? rememberDeviceMs(rememberDays) : 0 });
  }

  /** A signed, short-lived statement "this person gave the right password": no storage needed. */
  private challenge(kind: 'operator' | 'reseller', subjectId: string, now: number): PendingSignIn {
    const expiresAt = now + PENDING_SIGN_IN_MS;
    const payload = Buffer.from(JSON.stringify([kind, subjectId, expiresAt])).toString('base64url');
    return { challenge: `${payload}.${this.mac(payload)}`, expiresAt };
  }

  private readChallenge(kind: 'operator' | 'reseller', challenge: unknown): string {
    const expired = new AppError('UNAUTHENTICATED', 'the sign-in challenge is unknown or expired; sign in with the password again');
    if (typeof challenge !== 'string') throw new AppError('VALIDATION_ERROR', 'challenge (from the sign-in answer) is required');
    const [payload, mac, extra] = challenge.split('.');
    if (!payload || !mac || extra !== undefined) throw expired;
    const want = Buffer.from(this.mac(payload));
    const got = Buffer.from(mac);
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw expired;
    const [k, subjectId, expiresAt] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [string, string, number];
    if (k !== kind || typeof subjectId !== 'string' || !(expiresAt > this.deps.clock.now())) throw expired;
    return subjectId;
  }

  private mac(payload: string) {
    return createHmac('sha256', this.deps.csrfKey).update(`pending-sign-in:${payload}`).digest('base64url');
  }

  /**
   * Opens a session for a subject whose identity was already proven (sign-in, registration).
   * With a browser's context, the device is recognised by its cookie (or given a new one)
   * and, after a second step, remembered for two-factor for `rememberMs`.
   */
  async open(kind: 'operator' | 'reseller', subjectId: string, ctx?: { ip: string; device: SignInDevice; rememberMs?: number }): Promise<OpenedSession> {
    const now = this.deps.clock.now();
    const token = `${kind === 'operator' ? 'ops' : 'rss'}_${randomBytes(32).toString('base64url')}`;
    const expiresAt = now + this.deps.ttlMs;
    // Each sign-in clears the subject's expired sessions, so the table never grows without bound.
    await this.deps.accounts.deleteExpiredSessionsOf(kind, subjectId, now);
    await this.deps.accounts.insertSession({ tokenHash: hashToken(token), kind, subjectId, expiresAt, id: randomUUID(), ip: ctx?.ip ?? null, userAgent: ctx?.device.userAgent ?? null }, now);
    const device = ctx ? await this.recogniseDevice(kind, subjectId, ctx.device, now, ctx.rememberMs ?? 0) : null;
    if (ctx && device) await this.deps.history.record(kind, subjectId, { ip: ctx.ip, userAgent: ctx.device.userAgent, newDevice: device.isNew }, now);
    return { token, expiresAt, subjectId, device: device?.cookie ?? null };
  }

  /** The device row of this browser for this person: touched if known, else made (with a new cookie). */
  private async recogniseDevice(kind: 'operator' | 'reseller', subjectId: string, device: SignInDevice, now: number, rememberMs: number) {
    const { devices } = this.deps;
    const until = rememberMs > 0 ? now + rememberMs : undefined;
    const known = device.token ? await devices.device(hashToken(device.token)) : undefined;
    if (known && known.subject_kind === kind && known.subject_id === subjectId) {
      await devices.touchDevice(known.token_hash, now, until);
      return { isNew: false, cookie: null };
    }
    const token = randomBytes(32).toString('base64url');
    // Devices whose cookie has expired are gone from their browsers: forget them.
    await devices.pruneDevices(kind, subjectId, now - DEVICE_COOKIE_MS);
    await devices.insertDevice({ tokenHash: hashToken(token), kind, subjectId, twoFactorUntil: until ?? null }, now);
    return { isNew: true, cookie: { token, maxAgeMs: DEVICE_COOKIE_MS } };
  }

  /** The principal behind `Authorization: Bearer <token>`, or UNAUTHENTICATED (none, unknown, expired, or of the other kind). */
  async authenticate(authorization: string | undefined, kind: 'operator'): Promise<OperatorPrincipal>;
  async authenticate(authorization: string | undefined, kind: 'reseller'): Promise<AccountPrincipal>;
  async authenticate(authorization: string | undefined, kind: 'operator' | 'reseller'): Promise<SessionPrincipal> {
    const token = /^Bearer\s+(\S{1,200})$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new AppError('UNAUTHENTICATED', 'sign in first and send the session token as "Authorization: Bearer <token>"');
    return (await this.resolve(token, kind)).who;
  }

  /** The principal of a session token (from a bearer header or a browser cookie) and when the session ends. */
  async resolve(token: string, kind: 'operator'): Promise<{ who: OperatorPrincipal; expiresAt: number }>;
  async resolve(token: string, kind: 'reseller'): Promise<{ who: AccountPrincipal; expiresAt: number }>;
  async resolve(token: string, kind: 'operator' | 'reseller'): Promise<{ who: SessionPrincipal; expiresAt: number }>;
  async resolve(token: string, kind: 'operator' | 'reseller'): Promise<{ who: SessionPrincipal; expiresAt: number }> {
    const { accounts, clock } = this.deps;
    const now = clock.now();
    const session = await accounts.findSession(hashToken(token), now);
    if (!session) throw new AppError('UNAUTHENTICATED', 'the session token is unknown or expired; sign in again');
    // Last use, for the person's list of sessions: at most one write a minute per session.
    if (session.last_used_at === null || now - Number(session.last_used_at) > LAST_USE_GRANULARITY_MS) await accounts.touchSession(session.token_hash, now);
    // A session of the other kind is no credential here at all (401, as with no session):
    // 403 would tell its holder the token is live, and each UI's cue is to sign in.
    if (session.subject_kind !== kind) {
      throw new AppError('UNAUTHENTICATED', kind === 'operator' ? 'this API is for operators and the session is not an operator session; sign in as an operator' : 'this API is for resellers and the session is not a reseller session; sign in to the dashboard');
    }
    if (kind === 'operator') {
      const op = await accounts.operatorById(session.subject_id);
      if (!op || op.disabled_at !== null) throw new AppError('UNAUTHENTICATED', 'this operator account is disabled');
      const held = await accounts.operatorRoles(op.id);
      const roles = OPERATOR_ROLES.filter((r) => held.includes(r));
      const twoFactorMissing = await this.deps.twoFactor.missingFor(op.id, roles);
      return { who: { kind, operatorId: op.id, email: op.email, roles, twoFactorMissing }, expiresAt: Number(session.expires_at) };
    }
    const r = await accounts.resellerSubject(session.subject_id);
    if (!r) throw new AppError('UNAUTHENTICATED', 'this account no longer exists');
    return { who: { kind, resellerId: r.id, email: r.email, status: r.status }, expiresAt: Number(session.expires_at) };
  }

  async signOut(authorization: string | undefined): Promise<void> {
    const token = /^Bearer\s+(\S{1,200})$/i.exec(authorization ?? '')?.[1];
    if (token) await this.deps.accounts.deleteSession(hashToken(token));
  }

  /**
   * Counts one attempt at something guessable other than sign-in (registration, an
   * invitation token, a current-password check) against `key`; past the per-minute
   * allowance, TOO_MANY_ATTEMPTS with Retry-After.
   */
  async throttle(key: string, perMinute = ATTEMPTS_PER_MINUTE) {
    const state = await this.deps.limiter.consume(key, perMinute);
    if (!state.allowed) {
      throw new AppError('TOO_MANY_ATTEMPTS', `too many attempts; retry after ${state.resetSeconds} s`, { headers: { 'retry-after': String(state.resetSeconds) } });
    }
  }
}
