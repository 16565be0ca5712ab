/** Network errors an operator fixes by starting a server or correcting a URL, not by reading a stack. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name did not resolve',
  ETIMEDOUT: 'timed out',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

interface NetError { code?: string; address?: string; port?: number; hostname?: string; cause?: unknown; errors?: unknown[] }

function find(e: unknown, depth = 0): NetError | null {
  if (!e || typeof e !== 'object' || depth > 4) return null;
  const n = e as NetError;
  if (n.code && REASONS[n.code]) return n;
  for (const inner of [n.cause, ...(Array.isArray(n.errors) ? n.errors : [])]) {
    const found = find(inner, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * One line for a refused or failed connection (PostgreSQL, Redis, the service for `call`),
 * naming where and what to check; null for any other error.
 */
export function connectionProblem(e: unknown, command: string): string | null {
  const n = find(e);
  if (!n) return null;
  const where = n.address ? `${n.address}${n.port ? `:${n.port}` : ''}` : n.hostname ?? 'the server';
  const hint = command === 'call' ? 'is `topup serve` running there? (TOPUP_BASE_URL)'
    : samePort(process.env.REDIS_URL, n.port) ? 'is Redis running, and REDIS_URL right?'
      : 'is PostgreSQL running, and DATABASE_URL right?';
  return `topup ${command}: cannot connect to ${where}: ${REASONS[n.code!]}; ${hint}`;
}

function samePort(url: string | undefined, port: number | undefined): boolean {
  if (!url || port === undefined) return false;
  try {
    return Number(new URL(url).port || 6379) === port;
  } catch {
    return false;
  }
}
