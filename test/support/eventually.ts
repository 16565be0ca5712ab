/** Polls until `check` returns a truthy value, and returns it (bounded; no timing assertions). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, what: string, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
