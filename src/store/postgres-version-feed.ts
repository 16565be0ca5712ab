import pg from 'pg';
import { toVersions, VERSIONS_SQL, type CacheVersions, type HeldVersions } from './cache-versions.js';
import { CACHE_VERSIONS_CHANNEL } from './migrations/010_cache_version_notify.js';

export interface VersionFeedOptions {
  /** The listening connection is probed this often; a probe still unanswered at the next drops it. */
  heartbeatMs?: number;
  /** First wait before listening again after a drop; it doubles up to 30 s. */
  retryMs?: number;
  /** A listening connection not open (connected, LISTEN done) within this is dropped. */
  openTimeoutMs?: number;
  /** Told when the listening connection is lost (it is retried) or cannot be opened. */
  onDrop?: (err: unknown) => void;
}

const MAX_RETRY_MS = 30_000;
export const LISTENER_NAME = 'topup-cache-versions';
const READER_NAME = 'topup-cache-versions-read';

/**
 * PostgreSQL's cache versions without a read per request. Every bump of `cache_versions`
 * notifies a channel at commit (migration 010); this feed listens on a connection of its
 * own and vouches for the versions of its last read (HeldVersions) while nothing has
 * happened since that read started that could have changed them:
 * - no notification arrived (a change committed by another server, the CLI, plain SQL);
 * - this process's pool was not used (any query of this process may have been a change:
 *   a write through this server is seen by its next request, as before), and none of its
 *   connections is checked out (a change committed but not yet released);
 * - the listening connection stayed up (a notification sent while it was down is lost).
 * Otherwise VersionWatch reads, sharing reads as before, and that read is held again.
 *
 * What it relaxes: a change committed by *another* process applies once its notification
 * has arrived (sent at commit; under a millisecond on one host) instead of to the very
 * next request. While the listening connection is down (or before it is up), every
 * request reads, as before: no staleness beyond that. A connection that stops answering
 * without closing is found by its heartbeat within two periods.
 */
export class PostgresVersionFeed implements HeldVersions {
  /** Counts events after which held versions may be stale. */
  private tick = 0;
  /** Pool connections checked out by this process. */
  private busy = 0;
  private held: CacheVersions | null = null;
  private heldAt = -1;
  private listener: pg.Client | null = null;
  private live = false;
  private probing = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryMs: number;
  private stopped = false;
  /**
   * The reads' own connections (at most two: VersionWatch has no more in flight), apart
   * from the pool whose use they watch. Through that pool, each read came back as "the pool
   * was used" and had to be told apart (checking a client out and releasing it by hand
   * measured ~40 MB more peak RSS under B5 than pool.query); they also queued there behind
   * the order transactions.
   */
  private readonly readPool: pg.Pool;
  private readonly query = { name: 'topup_cache_versions', text: VERSIONS_SQL, rowMode: 'array' as const };
  /** Version reads and notifications heard so far (tests, diagnostics). */
  reads = 0;
  notifications = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly connectionString: string,
    private readonly opts: VersionFeedOptions = {},
  ) {
    this.retryMs = opts.retryMs ?? 1000;
    this.readPool = new pg.Pool({ connectionString, max: 2, application_name: READER_NAME });
    this.readPool.on('error', () => {}); // an idle connection closed by the server: the next read opens one
    pool.on('acquire', this.onAcquire);
    pool.on('release', this.onRelease);
  }

  private readonly onAcquire = () => void this.busy++;
  private readonly onRelease = () => {
    this.busy = Math.max(0, this.busy - 1);
    this.tick++;
  };

  /** Whether the feed is listening (it vouches for versions only then). */
  get listening(): boolean {
    return this.live;
  }

  fresh(): CacheVersions | null {
    return this.live && this.busy === 0 && this.heldAt === this.tick ? this.held : null;
  }

  /**
   * The versions as of now: a named statement, so each connection parses and plans it
   * once, rows as arrays (through Kysely it was built, parsed and planned again on every
   * read).
   */
  read = async (): Promise<CacheVersions> => {
    const at = this.tick;
    this.reads++;
    const v = toVersions((await this.readPool.query<unknown[]>(this.query)).rows[0]);
    if (at >= this.heldAt) {
      this.held = v;
      this.heldAt = at;
    }
    return v;
  };

  /** Listens; resolves once listening or once the first try failed (it then retries on its own). */
  async start(): Promise<void> {
    if (this.stopped || this.listener) return;
    // Named, so an operator can tell it among the connections (pg_stat_activity).
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true, application_name: LISTENER_NAME });
    this.listener = client;
    this.probing = false;
    client.on('error', (err) => this.drop(client, err));
    client.on('end', () => this.drop(client, new Error('the listening connection ended')));
    client.on('notification', (n) => {
      if (n.channel !== CACHE_VERSIONS_CHANNEL) return;
      this.notifications++;
      this.tick++;
    });
    const opening = client.connect().then(() => client.query(`listen ${CACHE_VERSIONS_CHANNEL}`));
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        opening,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('the listening connection did not open in time')), this.opts.openTimeoutMs ?? 5000);
        }),
      ]);
    } catch (err) {
      opening.catch(() => {});
      this.drop(client, err);
      return;
    } finally {
      clearTimeout(timer);
    }
    if (this.listener !== client) return; // dropped or stopped meanwhile
    // What was held was read while nobody listened: read again before vouching.
    this.tick++;
    this.live = true;
    this.retryMs = this.opts.retryMs ?? 1000;
    this.heartbeat = setInterval(() => this.probe(client), this.opts.heartbeatMs ?? 2000);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pool.off('acquire', this.onAcquire);
    this.pool.off('release', this.onRelease);
    if (this.retry) clearTimeout(this.retry);
    const client = this.listener;
    this.stopVouching();
    await this.readPool.end().catch(() => {});
    // A connection that stopped answering may never finish its goodbye: do not wait long.
    if (client) await Promise.race([client.end().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  }

  private probe(client: pg.Client): void {
    if (this.probing) return this.drop(client, new Error('the listening connection stopped answering'));
    this.probing = true;
    client.query('select 1').then(
      () => void (this.probing = false),
      () => {}, // its 'error' event drops it
    );
  }

  private drop(client: pg.Client, err: unknown): void {
    if (this.listener !== client) return;
    this.stopVouching();
    client.end().catch(() => {});
    if (this.stopped) return;
    this.opts.onDrop?.(err);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.start();
    }, this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private stopVouching(): void {
    this.live = false;
    this.tick++;
    this.listener = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
