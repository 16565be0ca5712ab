import { parsePage, type Page } from '../domain/list-query.js';
import type { ApiErrorRow, ApiErrorsRepo } from '../store/api-errors-repo.js';
import type { Clock } from './ports.js';

/** How long a refused request stays listed, and how many a reseller keeps. */
export const API_ERRORS_KEPT_MS = 7 * 86_400_000;
export const API_ERRORS_PER_RESELLER = 500;
/** Refusals wait this long in memory, then go to the store in one insert. */
const FLUSH_AFTER_MS = 1_000;
/** Past this many waiting, new refusals are dropped (a flood must not grow memory). */
const MAX_BUFFERED = 5_000;
/** The age and per-reseller cap prune runs after a flush at most this often. */
const PRUNE_EVERY_MS = 60_000;

/**
 * The recent refused API v1 requests of identifiable resellers (a known API key), for the
 * dashboard. Recording never touches the store on the request path: record() appends to an
 * in-memory buffer (nothing at all on success: only the error path calls it), and a timer
 * writes the buffer as one batch a second later (no more than a reseller's newest 500: only
 * those could be listed), then at most once a minute prunes rows older than 7 days and
 * beyond each reseller's newest 500. A crash loses at most the last second's
 * refusals: this is a diagnostic aid, not an audit log.
 */
export class ApiErrorLog {
  private buffer: ApiErrorRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private touched = new Set<string>();
  private lastPrune = 0;
  /** Refusals dropped because the buffer was full, since start. */
  dropped = 0;

  constructor(
    private readonly deps: { repo: ApiErrorsRepo; clock: Clock; enabled: boolean; onError: (err: unknown) => void },
  ) {}

  get enabled() {
    return this.deps.enabled;
  }

  record(row: ApiErrorRow): void {
    if (!this.deps.enabled) return;
    if (this.buffer.length >= MAX_BUFFERED) {
      this.dropped++;
      return;
    }
    this.buffer.push(row);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
      this.timer.unref();
    }
  }

  /** Writes what is buffered (one statement), then prunes if due. Flushes never overlap. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write() {
    const batch = newestPerReseller(this.buffer, API_ERRORS_PER_RESELLER);
    this.buffer = [];
    try {
      await this.deps.repo.insertMany(batch);
      for (const r of batch) this.touched.add(r.resellerId);
      if (this.deps.clock.now() - this.lastPrune >= PRUNE_EVERY_MS) await this.prune();
    } catch (err) {
      this.deps.onError(err);
    }
  }

  /** Rows older than 7 days, and beyond the newest 500 of every reseller written since the last prune. */
  async prune(): Promise<void> {
    const now = this.deps.clock.now();
    const touched = [...this.touched];
    this.touched.clear();
    this.lastPrune = now;
    await this.deps.repo.prune(now - API_ERRORS_KEPT_MS, touched, API_ERRORS_PER_RESELLER);
  }

  /** A reseller's recent refusals, newest first (the newest 500 of the last 7 days). */
  async list(resellerId: string, q: Record<string, unknown>): Promise<{ rows: Awaited<ReturnType<ApiErrorsRepo['list']>>['rows']; total: number; page: Page }> {
    const page = parsePage(q);
    const r = await this.deps.repo.list(resellerId, this.deps.clock.now() - API_ERRORS_KEPT_MS, API_ERRORS_PER_RESELLER, page);
    return { ...r, page };
  }

  async close(): Promise<void> {
    await this.flush();
  }
}

/** The last `cap` rows of each reseller, in their order: a flood of one account's refusals writes no more than can be listed. */
export function newestPerReseller(rows: ApiErrorRow[], cap: number): ApiErrorRow[] {
  const seen = new Map<string, number>();
  const keep: boolean[] = new Array(rows.length);
  for (let i = rows.length - 1; i >= 0; i--) {
    const n = (seen.get(rows[i]!.resellerId) ?? 0) + 1;
    seen.set(rows[i]!.resellerId, n);
    keep[i] = n <= cap;
  }
  return rows.filter((_, i) => keep[i]);
}
