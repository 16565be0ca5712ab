import { BlockList, isIP } from 'node:net';

/** Strips the IPv4-mapped IPv6 prefix so ::ffff:127.0.0.1 and 127.0.0.1 are one address. */
export function unmapIPv4(ip: string): string {
  const m = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return m ? m[1]! : ip;
}

/** Canonical text of an IP address, or null when it is not one. */
export function normalizeIp(raw: string): string | null {
  const ip = unmapIPv4(raw.trim());
  const family = isIP(ip);
  if (family === 4) return ip.split('.').map((o) => String(Number(o))).join('.');
  if (family === 6) {
    // Zone ids (fe80::1%eth0) are local to one host and not URL-parsable: not an address here.
    if (ip.includes('%')) return null;
    // BlockList compares IPv6 semantically; for storage we canonicalise through URL parsing.
    const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1).toLowerCase();
    // URL writes ::ffff:1.2.3.4 as ::ffff:102:304; keep one spelling of an IPv4 address.
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
    if (mapped) {
      const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
      return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
    }
    return canonical;
  }
  return null;
}

/** Whether `ip` is one of `allowed` (exact addresses, IPv4 and IPv6, compared semantically). */
export function ipAllowed(ip: string, allowed: readonly string[]): boolean {
  return compileWhitelist(allowed)(ip);
}

/**
 * ipAllowed with the list parsed once: the returned check keeps its BlockList and the
 * answers for the few addresses it has seen (a reseller calls from a handful of servers),
 * so a request with a cached credential parses no address at all.
 */
export function compileWhitelist(allowed: readonly string[]): (ip: string) => boolean {
  const list = new BlockList();
  for (const a of allowed) {
    const n = normalizeIp(a);
    if (n) list.addAddress(n, isIP(n) === 6 ? 'ipv6' : 'ipv4');
  }
  const seen = new Map<string, boolean>();
  return (ip) => {
    let ok = seen.get(ip);
    if (ok === undefined) {
      const candidate = normalizeIp(ip);
      ok = candidate !== null && list.check(candidate, isIP(candidate) === 6 ? 'ipv6' : 'ipv4');
      if (seen.size >= 64) seen.clear();
      seen.set(ip, ok);
    }
    return ok;
  };
}
