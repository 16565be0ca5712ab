import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createLogger } from '../../src/logger.js';

/**
 * The log audit of a whole test run. Every test app logs at trace level to a file in one
 * folder, and the test clients record every secret they handle (API secrets, full API keys,
 * passwords, session tokens, signatures) in that folder too. When the run ends, no recorded
 * secret may appear in any log line: the proof that secrets are never logged.
 */
const DIR_ENV = 'TOPUP_TEST_LOG_DIR';

/** Vitest globalSetup: creates the folder before the workers start, audits it after the run. */
export default function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), 'topup-logs-'));
  process.env[DIR_ENV] = dir;
  return () => {
    try {
      auditLogs(dir);
    } catch (e) {
      // Vitest reports an error thrown here but still exits 0; the run must fail.
      process.exitCode = 1;
      throw e;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

function auditLogs(dir: string) {
  const files = readdirSync(dir);
  const secrets = new Map<string, string>(); // secret → what it was
  for (const f of files.filter((n) => n.startsWith('secrets-'))) {
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      const tab = line.indexOf('\t');
      if (tab > 0 && line.length - tab > 8) secrets.set(line.slice(tab + 1), line.slice(0, tab));
    }
  }
  let lines = 0;
  const leaks: string[] = [];
  for (const f of files.filter((n) => n.endsWith('.log'))) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    lines += text.split('\n').length - 1;
    for (const [secret, what] of secrets) if (text.includes(secret)) leaks.push(`${what} in ${f}`);
  }
  // An audit over nothing proves nothing: the full run (CI) logs many thousands of lines.
  // A run of a few files may start no in-process app at all.
  if ((secrets.size === 0 || lines === 0) && process.env.REQUIRE_ALL_SUITES) throw new Error(`log audit: nothing to audit (${secrets.size} secrets recorded, ${lines} log lines)`);
  if (leaks.length) throw new Error(`log audit: secrets appear in the logs (${leaks.length}): ${[...new Set(leaks)].slice(0, 10).join('; ')}`);
  process.stdout.write(`Log audit: ${secrets.size} recorded secrets, none in ${lines} log lines.\n`);
}

/** Records a secret a test handled, so the audit can look for it in the logs. */
export function recordSecret(what: string, value: string | null | undefined): void {
  const dir = process.env[DIR_ENV];
  if (!dir || !value) return;
  appendFileSync(path.join(dir, `secrets-${process.pid}.txt`), `${what}\t${value}\n`);
}

let appLogs = 0;
/** The logger of a test app: trace level into the audited folder (silent when not auditing). */
export function auditedLogger(): pino.Logger {
  const dir = process.env[DIR_ENV];
  if (!dir) return createLogger('silent');
  return createLogger('trace', pino.destination({ dest: path.join(dir, `${process.pid}-${++appLogs}.log`), sync: true }));
}
