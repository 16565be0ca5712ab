import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * The data folder holds the SQLite store (API keys, emails, the ledger) and the master key:
 * only the service's own user may read it, whatever the umask. A folder we create is 0700;
 * one that already exists is left as the operator made it (it may be shared, e.g. /var/lib).
 */
export function makePrivateDir(dir: string): void {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Creates `file` empty if missing, and makes it owner-only (0600) either way. */
export function makePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** Makes the files that exist among `files` owner-only. */
export function restrictExisting(files: string[]): void {
  for (const f of files) if (existsSync(f)) chmodSync(f, 0o600);
}
