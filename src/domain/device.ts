/**
 * A short, human name of the browser or client behind a User-Agent ("Chrome on Windows"),
 * for lists of sessions and sign-ins. Only a summary: User-Agent is whatever the client
 * says, so it identifies nothing and is never a security decision.
 */
export function deviceSummary(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').slice(0, 300);
  if (ua === '') return 'Unknown device';
  const browser =
    /Edg\//.test(ua) ? 'Edge'
    : /OPR\/|Opera/.test(ua) ? 'Opera'
    : /Firefox\//.test(ua) ? 'Firefox'
    : /SamsungBrowser\//.test(ua) ? 'Samsung Internet'
    : /Chrome\/|CriOS\//.test(ua) ? 'Chrome'
    : /Safari\//.test(ua) && /Version\//.test(ua) ? 'Safari'
    : /^curl\//.test(ua) ? 'curl'
    : /^node|undici|axios|python-requests|Go-http-client/i.test(ua) ? 'Script'
    : null;
  const os =
    /iPhone/.test(ua) ? 'iPhone'
    : /iPad/.test(ua) ? 'iPad'
    : /Android/.test(ua) ? 'Android'
    : /Windows/.test(ua) ? 'Windows'
    : /Mac OS X|Macintosh/.test(ua) ? 'macOS'
    : /CrOS/.test(ua) ? 'ChromeOS'
    : /Linux/.test(ua) ? 'Linux'
    : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? ua.split(/[\s/]/)[0]!.slice(0, 40);
}
