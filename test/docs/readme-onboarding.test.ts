import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports.js';

const REPO = join(import.meta.dirname, '..', '..');
const SECTION = '## Onboarding: from registration to the first verified callback';

/** The README's fenced sh blocks of the onboarding section, in order. */
export function onboardingBlocks(readme: string): string[] {
  const start = readme.indexOf(SECTION);
  if (start < 0) throw new Error(`README has no section "${SECTION}"`);
  const end = readme.indexOf('\n## ', start + SECTION.length);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** Commands a reader types: a line continued with \ or inside an open quote is one command. */
export function countCommands(script: string): number {
  let count = 0;
  let open = false;
  let quote: string | null = null;
  for (const line of script.split('\n')) {
    const trimmed = line.trim();
    if (!open && !quote && (trimmed === '' || trimmed.startsWith('#'))) continue;
    if (!open && !quote) count++;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (ch === '\\' && quote !== "'") i++; // an escaped character opens or closes nothing
      else if (quote) { if (ch === quote) quote = null; } else if (ch === "'" || ch === '"') quote = ch;
    }
    open = !quote && trimmed.endsWith('\\');
  }
  return count;
}

/**
 * Time to first order: follows only the README's onboarding section on a fresh copy of the
 * repository (tracked files; the install is the worktree's, linked), the way a script
 * would: start the service as it says, then run its blocks in order in one shell,
 * substituting only what it tells the reader to (where the service listens, the printed
 * operator password, a free port for the receiver), to a verified callback.
 */
describe('README onboarding, followed literally', () => {
  let service: ChildProcess | null = null;
  let clone = '';
  afterAll(() => {
    // npm start runs node: end the whole group this test started (if it still runs).
    if (service?.pid && service.exitCode === null) process.kill(-service.pid, 'SIGTERM');
    if (clone) rmSync(clone, { recursive: true, force: true });
  });

  it('goes from npm start to a verified callback, and says how many commands that took', async () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const blocks = onboardingBlocks(readme);
    expect(blocks[0]!.trim()).toBe('npm start');

    clone = mkdtempSync(join(tmpdir(), 'topup-readme-'));
    const files = spawnSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
    for (const f of files) {
      if (!existsSync(join(REPO, f))) continue;
      mkdirSync(dirname(join(clone, f)), { recursive: true });
      cpSync(join(REPO, f), join(clone, f));
    }
    symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
    // What npm ci's prepare would build: the compiled service (dist/) and the web apps.
    symlinkSync(join(REPO, 'dist'), join(clone, 'dist'));
    if (existsSync(join(REPO, 'web', 'dist'))) symlinkSync(join(REPO, 'web', 'dist'), join(clone, 'web', 'dist'));

    // The README: "HOST and PORT choose where it listens". PORT=0 takes a free port. A
    // reader's shell has none of the test runner's settings (NODE_ENV=test and the like).
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(NODE_ENV|VITEST.*|DATABASE_URL|DATA_DIR|HOST|TEST_.*)$/.test(k)));
    service = spawn('npm', ['start'], { cwd: clone, env: { ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    service.stdout!.on('data', (d) => (out += d));
    service.stderr!.on('data', (d) => (out += d));
    const deadline = Date.now() + 120_000;
    while (!/topup listening on (\S+)\/api\/v1/.test(out)) {
      if (Date.now() > deadline || service.exitCode !== null) throw new Error(`service did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const base = /topup listening on (\S+)\/api\/v1/.exec(out)![1]!;
    const password = /Password: (\S+)/.exec(out)![1]!;
    const cbPort = await freePort();

    // The substitutions the README asks for, and nothing else.
    const script = blocks.slice(1).join('\n')
      .replace('export BASE=http://127.0.0.1:8080', `export BASE=${base}`)
      .replace('<the password printed at first start>', password)
      .replace('export CB_PORT=9000', `export CB_PORT=${cbPort}`);
    const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', `${script}\nkill %1 2>/dev/null || true`], { cwd: clone, encoding: 'utf8', timeout: 120_000 });
    const commands = 1 + countCommands(blocks.slice(1).join('\n'));
    console.log(`README onboarding: ${commands} commands from npm start to a verified callback`);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/callback verified: \{"ref_id":"acme-0001"/);
    expect(run.stdout).toMatch(/"status":"success"/);
    // The figure the README states is the one measured.
    expect(readme.replace(/\s+/g, ' ')).toContain(`**${commands} commands**`);
  }, 300_000);
});
