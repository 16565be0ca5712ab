import { describe, expect, it } from 'vitest';
import { VersionWatch, type CacheVersions } from '../../src/store/cache-versions.js';

/** A store whose version the test bumps; each read records when it started. */
function fakeStore(readMs: number) {
  const s = { version: 1, reads: 0 };
  const read = async (): Promise<CacheVersions> => {
    s.reads++;
    const seen = s.version;
    if (readMs > 0) await new Promise((r) => setTimeout(r, readMs));
    return { auth: seen, catalog: seen };
  };
  return { s, read };
}

describe('VersionWatch: one shared read, never older than the ask', () => {
  it('per-turn: all asks of one event-loop turn share one read, taken after the turn', async () => {
    const { s, read } = fakeStore(0);
    const watch = new VersionWatch(read, 'per-turn');
    const asks = Array.from({ length: 20 }, () => watch.current());
    s.version = 2; // a write later in the same turn, before the shared read starts: it is seen
    const got = await Promise.all(asks);
    expect(s.reads).toBe(1);
    expect(new Set(got.map((v) => v.auth))).toEqual(new Set([2]));
    // The next turn reads again: a write in between is never hidden by the earlier read.
    s.version = 3;
    expect((await watch.current()).auth).toBe(3);
    expect(s.reads).toBe(2);
  });

  it('in-flight: asks during a read wait for the single next read, which starts after them', async () => {
    const { s, read } = fakeStore(20);
    const watch = new VersionWatch(read);
    const first = watch.current();
    s.version = 2; // committed while the first read is in flight: later asks must see it
    const later = Array.from({ length: 10 }, () => watch.current());
    expect((await first).auth).toBe(1);
    const got = await Promise.all(later);
    expect(got.every((v) => v.auth === 2)).toBe(true);
    expect(s.reads).toBe(2);
  });

  it('in-flight: asks in the turn the answer came back in (after it) join the next read with those that waited', async () => {
    const { s, read } = fakeStore(5);
    const watch = new VersionWatch(read);
    const first = watch.current();
    const waited = Array.from({ length: 3 }, () => watch.current());
    s.version = 2;
    const sameTurn = first.then(() => Array.from({ length: 3 }, () => watch.current()));
    const got = await Promise.all([...waited, ...(await sameTurn)]);
    expect(got.every((v) => v.auth === 2)).toBe(true);
    expect(s.reads).toBe(2);
    // Idle again: an ask reads at once, and sees what was written since.
    s.version = 3;
    expect((await watch.current()).auth).toBe(3);
    expect(s.reads).toBe(3);
  });

  it('held versions, while vouched for, stand in for the read; once not, it reads again', async () => {
    const { s, read } = fakeStore(0);
    let held: CacheVersions | null = { auth: 7, catalog: 7 };
    const watch = new VersionWatch(read, 'in-flight', { fresh: () => held });
    expect(await watch.current()).toEqual({ auth: 7, catalog: 7 });
    expect(s.reads).toBe(0);
    held = null;
    expect((await watch.current()).auth).toBe(1);
    expect(s.reads).toBe(1);
  });
});
