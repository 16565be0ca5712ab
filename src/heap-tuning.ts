import v8 from 'node:v8';

/**
 * How far V8 lets the old space grow past what a full GC left live, for the long-running
 * processes (`serve`, `worker`). V8 picks the factor itself (up to 4×) from how fast the
 * program allocates, and under a steady order flow the service's old space filled with
 * promoted garbage to ~3× its ~50 MB live set before each full GC: peak RSS 242–290 MB
 * under B3/B4 on SQLite against the 250 MB goal. At 30% (1.3×) the same runs peaked at
 * 210–212 MB with no change in their rates or latency beyond noise (alternating runs).
 * Unlike a hard cap (--max-old-space-size) it follows a larger live set (a big catalog,
 * many resellers): the limit is set from what survives, so it cannot turn growth into an
 * out-of-memory crash. Set before the process allocates much (V8 reads the flag at each
 * full GC); 0 leaves V8's own choice.
 */
export function tuneHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
