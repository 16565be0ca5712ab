import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/**
 * Browser sessions of the session APIs: the session token travels in an HttpOnly,
 * SameSite=Strict cookie scoped to the API's path, so page scripts never hold it. A cookie is
 * an ambient credential, so state-changing requests it authenticates also need the CSRF
 * header and must come from the service's own origin (json-api.ts enforces both).
 */
export type BrowserApi = 'admin' | 'dashboard';

export const SESSION_COOKIES: Record<BrowserApi, { name: string; path: string }> = {
  admin: { name: 'topup_admin_session', path: '/admin/v1' },
  dashboard: { name: 'topup_dashboard_session', path: '/dashboard/v1' },
};

/**
 * The device cookie: a random token naming this browser for one person (known device,
 * "remember this device" for two-factor). Sent only to the sign-in routes.
 */
export const DEVICE_COOKIES: Record<BrowserApi, { name: string; path: string }> = {
  admin: { name: 'topup_admin_device', path: '/admin/v1/auth' },
  dashboard: { name: 'topup_dashboard_device', path: '/dashboard/v1/auth' },
};

export const CSRF_HEADER = 'x-csrf-token';

export interface BrowserSessionOptions {
  /** Add Secure to the cookie (off only in development and test, which run over plain http). */
  secureCookies: boolean;
  /** The one accepted Origin; null: the origin the request was addressed to (Host header). */
  publicOrigin: string | null;
}

/** The value of one cookie in a Cookie header, or null. Session tokens are base64url, so no decoding. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[\w-]{1,200}$/.test(value) ? value : null;
    }
  }
  return null;
}

function cookie(api: BrowserApi, value: string, maxAgeSeconds: number, opts: BrowserSessionOptions, which = SESSION_COOKIES) {
  const { name, path } = which[api];
  const expires = maxAgeSeconds === 0 ? 'Thu, 01 Jan 1970 00:00:00 GMT' : new Date(Date.now() + maxAgeSeconds * 1000).toUTCString();
  return `${name}=${value}; Path=${path}; Max-Age=${maxAgeSeconds}; Expires=${expires}; HttpOnly; SameSite=Strict${opts.secureCookies ? '; Secure' : ''}`;
}

/** Sets the session cookie; it lives exactly as long as the session. */
export function setSessionCookie(reply: FastifyReply, api: BrowserApi, token: string, expiresAt: number, now: number, opts: BrowserSessionOptions) {
  reply.header('set-cookie', cookie(api, token, Math.max(1, Math.floor((expiresAt - now) / 1000)), opts));
}

/** Sets the device cookie (a header beside the session cookie's: Fastify sends both). */
export function setDeviceCookie(reply: FastifyReply, api: BrowserApi, token: string, maxAgeMs: number, opts: BrowserSessionOptions) {
  reply.header('set-cookie', cookie(api, token, Math.floor(maxAgeMs / 1000), opts, DEVICE_COOKIES));
}

export function clearSessionCookie(reply: FastifyReply, api: BrowserApi, opts: BrowserSessionOptions) {
  reply.header('set-cookie', cookie(api, '', 0, opts));
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const changesState = (method: string) => !SAFE_METHODS.has(method);

/** The origin a request was addressed to, as a browser on this service would send it in Origin. */
function ownOrigin(req: FastifyRequest, opts: BrowserSessionOptions): string {
  return opts.publicOrigin ?? `${req.protocol}://${req.host}`;
}

/**
 * Refuses a request a browser sent on behalf of another site: Sec-Fetch-Site cross-site or
 * same-site (a sibling subdomain is another site for our purposes), or an Origin that is not
 * ours. Clients that send neither header (curl, scripts) pass: they hold no ambient cookie of
 * a victim's browser.
 */
export function assertSameOrigin(req: FastifyRequest, opts: BrowserSessionOptions): void {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    throw new AppError('CSRF_REJECTED', `refused: the request came from another site (Sec-Fetch-Site: ${site})`);
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== ownOrigin(req, opts).toLowerCase()) {
    throw new AppError('CSRF_REJECTED', `refused: Origin ${origin.slice(0, 100)} is not this service's origin`);
  }
}
