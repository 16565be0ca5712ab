// @ts-expect-error: a plain JavaScript build script, without type declarations
import { build, isStale } from '../../scripts/build.mjs';

/**
 * Vitest globalSetup: tests that start `bin/topup.js` (the CLI, the service, the worker)
 * run the compiled build in dist/, so it is rebuilt first whenever a file under src/ is
 * newer (about a second: esbuild, transpile only). A test never runs a stale build.
 */
export default async function setup() {
  if (isStale()) await build();
}
