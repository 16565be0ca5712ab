import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { serveProcess, topupSync, userEnv } from '../support/cli.js';
import { JsonClient } from '../support/json-client.js';

/** `topup serve` on a data folder and port, as a new user starts it. */
const serve = (dataDir: string, port: number) => serveProcess(userEnv(dataDir, { PORT: String(port) }));

const count = (dataDir: string, table: string) => {
  const db = new SQLite(path.join(dataDir, 'topup.sqlite'), { readonly: true });
  try {
    return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('first start: credentials are never created unprinted, and an operator can get back in', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a taken port is one clear line and exit 1, with nothing created; the next start prints the credentials; operator-reset-password prints a new password once', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'topup-first-')), 'data');
    dirs.push(path.dirname(dataDir));
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    const failed = await serve(dataDir, port).then(
      () => null,
      (e: { code: number | null; output: string }) => e,
    );
    await new Promise((r) => blocker.close(r));
    expect(failed).not.toBeNull();
    expect(failed!.code).toBe(1);
    const lines = failed!.output.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('…'));
    expect(lines).toEqual([`topup: cannot listen on 127.0.0.1:${port}: the port is already in use (is another topup running?); stop it or set PORT to a free port; nothing was created`]);
    expect(count(dataDir, 'operators')).toBe(0);
    expect(count(dataDir, 'resellers')).toBe(0);

    // The next start creates and prints both.
    const { child, output } = await serve(dataDir, 0);
    children.push(child);
    expect(output).toContain('First operator created');
    expect(output).toMatch(/TOPUP_API_SECRET=\S+/);
    const email = /Email:\s+(\S+)/.exec(output)![1]!;
    const firstPassword = /Password:\s+(\S+)/.exec(output)![1]!;
    const origin = new URL(/topup listening on (\S+)/.exec(output)![1]!).origin;
    const signedIn = new JsonClient(`${origin}/admin/v1`);
    expect((await signedIn.signIn(email, firstPassword)).status).toBe(200);
    // The first operator is owner: someone can manage the others' roles.
    expect((await signedIn.get('/auth/session')).body.data.roles).toEqual(['owner']);

    // The way back in: a new password, printed once; the old one and its sessions are gone.
    const cliEnv = userEnv(dataDir, { LOG_LEVEL: 'silent', MASTER_KEY: readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim() });
    const reset = topupSync(cliEnv, 'operator-reset-password', email, '--json');
    expect(reset.status, reset.stderr).toBe(0);
    const { password } = JSON.parse(reset.stdout);
    expect(password).toMatch(/^\S{20,}$/);
    expect(password).not.toBe(firstPassword);
    expect((await signedIn.get('/me')).status).toBe(401);
    expect((await new JsonClient(`${origin}/admin/v1`).signIn(email, firstPassword)).status).toBe(401);
    const again = new JsonClient(`${origin}/admin/v1`);
    expect((await again.signIn(email, password)).status).toBe(200);
    const audit = await again.get('/audit?action=operator.reset_password');
    expect(audit.status, audit.text).toBe(200);
    expect(JSON.stringify(audit.body)).toContain('operator.reset_password');
    expect(JSON.stringify(audit.body)).not.toContain(password);

    const unknown = topupSync(cliEnv, 'operator-reset-password', 'nobody@example.com');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trim()).toBe('no operator has the email nobody@example.com');
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }, 180_000);
});
