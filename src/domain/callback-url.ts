import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * IPv6 global unicast (RFC 4291 2.4, IANA): every public IPv6 address is in it, and it
 * excludes the IPv4-compatible ::/96 (deprecated, yet routed to the embedded IPv4 address
 * by some stacks) that ipaddr.js still calls 'unicast'.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether a callback may go to `address`: only ordinary public unicast. The special-purpose
 * ranges come from ipaddr.js's table (a maintained copy of the IANA registries): loopback,
 * private, link-local (cloud metadata 169.254.169.254), CGNAT, unspecified/0.0.0.0/8,
 * broadcast, multicast, documentation and benchmarking, reserved, and on IPv6 also
 * unique-local and every range that embeds or tunnels to an IPv4 address (IPv4-mapped,
 * IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32). An IPv4-mapped
 * address is judged as the IPv4 address it is.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  // Zone ids (fe80::1%eth0) are local to one host: never a callback target.
  if (family === 0 || address.includes('%')) return false;
  // ipaddr.js reads a dotted tail such as ::8.8.8.8 as IPv4-mapped (::ffff:8.8.8.8); the URL
  // parser's canonical text (::808:808) has none, so each address is judged as what it is.
  const ip = ipaddr.parse(family === 6 ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

export type CallbackUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * Characters a URL never holds raw (RFC 3986): whitespace and controls, quotes, `<>` and the
 * backtick. The URL parser would quietly percent-encode them, storing an address other
 * than the one given (often a pasted fragment of HTML or a quoted string).
 */
const RAW_UNSAFE = /[\s\x00-\x1f\x7f"<>`]/;

/**
 * The checks that need no DNS: a well-formed absolute URL, http(s) only, no credentials,
 * and an IP-literal host must be public. Host names are resolved and checked again at
 * every delivery attempt.
 */
export function validateCallbackUrl(raw: string, opts: { allowPrivate: boolean }): CallbackUrlCheck {
  const unsafe = RAW_UNSAFE.exec(raw);
  if (unsafe) return { ok: false, message: `callback URL is not a valid URL: it contains ${JSON.stringify(unsafe[0])}; percent-encode it (e.g. a space as %20)` };
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
