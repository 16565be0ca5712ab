import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { CLI_ROUNDS } from '../lib/config.js';
import type { StoreRun } from '../lib/context.js';
import { alternate } from '../lib/load.js';
import { TOPUP_BIN } from '../lib/processes.js';
import { add } from '../lib/rows.js';
import { topupEnv } from '../lib/services.js';

/**
 * CLI start (issue 25): `topup --help` and a read-only command against a bare
 * `node -e ''`, each run to its exit, in alternating rounds; the median of each. Whatever
 * bin/topup.js is, is what is measured. The read-only command is `attention` (it opens
 * the store alone), or BENCH_CLI_READONLY.
 */
export async function cliStart(run: StoreRun) {
  const readOnly = process.env.BENCH_CLI_READONLY?.split(' ').filter(Boolean) ?? ['attention'];
  const env = { ...process.env, ...topupEnv(run.store, run.dataDir) };
  // A command that exits non-zero is still timed; its row says the exit code.
  const exits = new Map<string, number | null>();
  const timed = (args: string[]) => async () => {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = performance.now() - t;
    if (r.status !== 0) exits.set(args.join(' '), r.status);
    return ms;
  };
  const commands = [
    { name: 'topup --help', args: [TOPUP_BIN, '--help'] },
    { name: `topup ${readOnly.join(' ')} (read-only, ${run.label})`, args: [TOPUP_BIN, ...readOnly] },
  ];
  const rounds = await alternate([timed(['-e', '']), ...commands.map((c) => timed(c.args))], CLI_ROUNDS);
  const median = (i: number) => rounds.map((r) => r[i]!).sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!;
  const bare = median(0);
  commands.forEach((c, i) => {
    add({
      id: 'CLI', figure: `${c.name}: start to exit, median of ${CLI_ROUNDS} alternating rounds${exits.has(c.args.join(' ')) ? ` (exited ${exits.get(c.args.join(' '))})` : ''}`, load: `${CLI_ROUNDS} rounds, one process at a time`,
      value: median(i + 1), unit: 'ms', baseline: "node -e ''", baselineValue: bare, p50: null, p99: null, rssMb: null, goal: 'ratio ≤ 3', goalRatioMax: 3,
    });
  });
}

