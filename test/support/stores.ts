import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { StoreConfig } from '../../src/config.js';

/**
 * Real stores for tests: a fresh SQLite file in a temp folder, and (when TEST_POSTGRES_URL
 * is set) a fresh PostgreSQL database created for the test file and dropped after it.
 */
export type StoreKind = 'sqlite' | 'postgres';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? '';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? '';

/** CI sets REQUIRE_ALL_SUITES so that a missing service fails the run instead of skipping. */
if (process.env.REQUIRE_ALL_SUITES && (!POSTGRES_URL || !REDIS_URL)) {
  throw new Error('REQUIRE_ALL_SUITES is set but TEST_POSTGRES_URL or TEST_REDIS_URL is missing');
}

export const storeKinds = (): StoreKind[] => (POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite']);

export interface TestStore {
  kind: StoreKind;
  config: StoreConfig;
  /** DATABASE_URL form, for child processes. */
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

export async function createTestStore(kind: StoreKind): Promise<TestStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'topup-test-'));
  if (kind === 'sqlite') {
    const file = path.join(dataDir, 'test.sqlite');
    return { kind, config: { kind, file }, url: `sqlite:${file}`, dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  if (!POSTGRES_URL) throw new Error('TEST_POSTGRES_URL is not set');
  const name = `topup_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    kind,
    config: { kind, url: url.toString() },
    url: url.toString(),
    dataDir,
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
