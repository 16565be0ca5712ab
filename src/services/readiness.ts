/**
 * /readyz: whether this process should get traffic. Each check answers within a deadline
 * or counts as failed; the answer names every check and what failed. Readiness fails only
 * for what leaves the process unable to serve: a dependency it serves without (Redis: rate
 * limits then count per process) is reported degraded, never taken out of rotation, since
 * every server loses it at once and a proxy would take them all out together.
 */
export interface ReadinessCheck {
  name: string;
  /** Resolves with a short state ("ok", "not configured") or rejects with what is wrong. */
  run: () => Promise<string>;
  /** Its failure degrades the service (reported in `degraded`) without failing readiness. */
  degradesOnly?: true;
}

export interface Readiness {
  ready: boolean;
  /** Stopping (SIGTERM): not ready whatever the checks say, so the proxy stops sending. */
  draining?: true;
  /** Each check's state, or what failed. */
  checks: Record<string, string>;
  failed: string[];
  /** Failed checks of dependencies the process serves without. */
  degraded: string[];
}

export async function checkReadiness(checks: ReadinessCheck[], deadlineMs: number): Promise<Readiness> {
  const results = await Promise.all(checks.map(async (c) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
    });
    try {
      return { name: c.name, ok: true, state: await Promise.race([c.run(), late]), degradesOnly: c.degradesOnly };
    } catch (e) {
      return { name: c.name, ok: false, state: e instanceof Error ? e.message : String(e), degradesOnly: c.degradesOnly };
    } finally {
      clearTimeout(timer);
    }
  }));
  const failed = results.filter((r) => !r.ok && !r.degradesOnly).map((r) => r.name);
  return {
    ready: failed.length === 0,
    checks: Object.fromEntries(results.map((r) => [r.name, r.state])),
    failed,
    degraded: results.filter((r) => !r.ok && r.degradesOnly).map((r) => r.name),
  };
}

/**
 * This process's readiness: its checks, until drain() (a graceful stop), from when it
 * answers "draining" at once: the reverse proxy's health check takes the process out of
 * rotation while it still serves what reaches it (docs/operations.md, "Stopping").
 */
export class ReadinessProbe {
  private draining = false;

  constructor(private readonly checks: ReadinessCheck[], private readonly deadlineMs: number) {}

  drain(): void {
    this.draining = true;
  }

  check(): Promise<Readiness> {
    if (this.draining) return Promise.resolve({ ready: false, draining: true, checks: { shutdown: 'draining' }, failed: ['shutdown'], degraded: [] });
    return checkReadiness(this.checks, this.deadlineMs);
  }
}

/**
 * The in-process worker's check: its claim loop turns at least every poll interval, so a
 * turn older than `staleAfterMs` means it is stuck or stopped (its jobs' leases have
 * lapsed by then: other workers take them). A process without the worker passes.
 */
export function workerHeartbeat(runner: { lastTurnAt: number | null }, now: () => number, staleAfterMs: number): ReadinessCheck {
  return {
    name: 'worker',
    run: async () => {
      if (runner.lastTurnAt === null) return 'not in this process';
      const age = now() - runner.lastTurnAt;
      if (age > staleAfterMs) throw new Error(`heartbeat ${age} ms old (stale after ${staleAfterMs} ms)`);
      return 'ok';
    },
  };
}
