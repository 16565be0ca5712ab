import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONNECTIONS, SMOKE } from './config.js';

const ONE_ORDER = path.resolve('bench/baselines/order-txn.sql');

/**
 * The pgbench script with `group` orders per transaction, each in its own savepoint as the
 * service's group runs each order in its own subtransaction (topup_place_orders' exception
 * block): bench/baselines/order-txn.sql's statements repeated, each copy with its own ref_id.
 * One order: the file as it is.
 */
export function orderTxnScript(group: number, dir: string): string {
  if (group <= 1) return ONE_ORDER;
  const text = readFileSync(ONE_ORDER, 'utf8');
  const body = /^BEGIN;\n([\s\S]*?)^COMMIT;/m.exec(text)![1]!;
  const copies = Array.from({ length: group }, (_, k) => `SAVEPOINT one_order;\n${body.replaceAll(':r::text', `:r::text || '-${k}'`)}RELEASE SAVEPOINT one_order;\n`);
  const file = path.join(dir, `order-txn-${group}.sql`);
  writeFileSync(file, `${text.slice(0, text.indexOf('BEGIN;'))}BEGIN;\n${copies.join('')}COMMIT;\n`);
  return file;
}

let bin: string | undefined;
function pgbenchBin(): string {
  bin ??= ['/usr/lib/postgresql/15/bin/pgbench', 'pgbench'].find((b) => {
    try {
      execFileSync(b, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!bin) throw new Error('pgbench not found');
  return bin;
}

/** pgbench running the order transaction, `group` orders per transaction: orders a second. */
export function pgbenchOrders(url: string, resellerId: string, group: number, seconds: number, dir: string): { ordersPerSecond: number; tps: number } {
  const out = execFileSync(pgbenchBin(), ['-n', '-M', 'extended', '-c', String(CONNECTIONS), '-j', '2', '-T', String(seconds), '-D', `rid=${resellerId}`, '-f', orderTxnScript(group, dir), url], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
  // Smoke mode checks the code path only: on a busy machine a short run may finish none.
  if (!tps && !SMOKE) throw new Error(`pgbench ran no transaction:\n${out}`);
  return { tps, ordersPerSecond: tps * Math.max(1, group) };
}
