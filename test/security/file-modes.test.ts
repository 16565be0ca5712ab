import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createPlatform } from '../../src/main.js';
import { auditedLogger } from '../support/log-audit.js';

const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

describe('the embedded store is owner-only on disk (SQLite)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'topup-modes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('creates the data folder 0700 and the database, -wal, -shm and master.key 0600', async () => {
    const dataDir = path.join(root, 'fresh', 'data');
    const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SANDBOX_DELAY_MS: '0' });
    const platform = await createPlatform(config, { passwordCost: 2 ** 10, logger: auditedLogger() });
    try {
      await platform.seedDemo(); // writes, so the WAL and its index exist
      const db = path.join(dataDir, 'topup.sqlite');
      expect(mode(dataDir)).toBe('700');
      for (const f of [db, `${db}-wal`, `${db}-shm`, path.join(dataDir, 'master.key')]) expect([f, mode(f)]).toEqual([f, '600']);
    } finally {
      await platform.close();
    }
  });
});
