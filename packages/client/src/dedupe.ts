/**
 * Where handled X-Callback-Id values are remembered. Delivery is at-least-once (a round can
 * arrive twice), so a handler claims the id before acting and releases it if acting failed.
 * Use a shared store (Redis SET NX PX, a unique database row) when several processes receive.
 */
export interface CallbackStore {
  /** true when `id` was not claimed within `ttlMs` (and claims it now); false for a repeat. */
  claim(id: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forgets a claim, so a redelivery is processed again (the handler failed). */
  release(id: string): void | Promise<void>;
}

/** In-process store with expiry: fine for one process; bounded to `maxEntries` ids. */
export class MemoryCallbackStore implements CallbackStore {
  private readonly seen = new Map<string, number>();

  constructor(private readonly maxEntries = 100_000, private readonly now: () => number = Date.now) {}

  claim(id: string, ttlMs: number): boolean {
    const now = this.now();
    const until = this.seen.get(id);
    if (until !== undefined && until > now) return false;
    this.seen.delete(id);
    this.seen.set(id, now + ttlMs);
    if (this.seen.size > this.maxEntries) this.sweep(now);
    return true;
  }

  release(id: string): void {
    this.seen.delete(id);
  }

  get size(): number {
    return this.seen.size;
  }

  /** Drops expired ids; if still too many, the oldest claims (Map keeps insertion order). */
  private sweep(now: number) {
    for (const [id, until] of this.seen) if (until <= now) this.seen.delete(id);
    for (const id of this.seen.keys()) {
      if (this.seen.size <= this.maxEntries) break;
      this.seen.delete(id);
    }
  }
}
