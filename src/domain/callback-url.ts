import { BlockList, isIP } from 'node:net';
import { unmapIPv4 } from './ip.js';

/**
 * Where callbacks may never go unless private targets are explicitly allowed: loopback,
 * private, link-local (and so cloud metadata at 169.254.169.254), unique-local, CGNAT,
 * multicast and reserved ranges.
 */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32], ['100::', 64],
] as const) FORBIDDEN.addSubnet(net, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const ip = unmapIPv4(address);
  const family = isIP(ip);
  if (family === 0) return false;
  return !FORBIDDEN.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

export type CallbackUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * The checks that need no DNS: http(s) only, no credentials, and an IP-literal host must be
 * public. Host names are resolved and checked again at every delivery attempt.
 */
export function validateCallbackUrl(raw: string, opts: { allowPrivate: boolean }): CallbackUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'callback URL is not a valid absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'callback URL must use http or https' };
  if (url.username || url.password) return { ok: false, message: 'callback URL must not contain credentials' };
  if (raw.length > 2048) return { ok: false, message: 'callback URL must be at most 2048 characters' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!opts.allowPrivate) {
    if (isIP(host) && !isPublicAddress(host)) return { ok: false, message: `callback URL points to a private or reserved address (${host})` };
    if (host === 'localhost' || host.endsWith('.localhost')) return { ok: false, message: 'callback URL must not point to localhost' };
  }
  return { ok: true, url };
}
