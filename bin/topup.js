#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm run build`, which `npm ci` runs via prepare).
try {
  await import('../dist/cli.js');
} catch (e) {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes('dist/cli.js')) throw e;
  process.stderr.write('topup: the compiled build is missing; run `npm run build` (or `npm ci`) first\n');
  process.exit(1);
}
