#!/usr/bin/env node
// Compiles src/ to dist/ (one .js per .ts, same layout; non-TypeScript files copied as they are),
// with the dependencies in VENDOR bundled into one file each under dist/vendor/. Transpile only: `npm run typecheck` (tsc --noEmit) is the type check. Why esbuild and not
// tsc or a bundle: docs/architecture.md, "Build". Plain JavaScript, so it runs without tsx.
//   node scripts/build.mjs            build now
//   node scripts/build.mjs --if-stale build only when a file under src/ is newer than dist/
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.built');

/**
 * Packages of many small ES modules, loaded by CLI commands: one file each loads much
 * faster (kysely: ~450 files; docs/architecture.md, "Build", figures in docs/performance.md).
 */
const VENDOR = ['kysely'];

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : [p];
  });
}

/** Newest change under src/ (a deleted file changes its folder's mtime) and of this script. */
function newestSource() {
  let newest = statSync(fileURLToPath(import.meta.url)).mtimeMs;
  const walk = (dir) => {
    newest = Math.max(newest, statSync(dir).mtimeMs);
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk(src);
  return newest;
}

export function isStale() {
  return !existsSync(stamp) || statSync(stamp).mtimeMs < newestSource();
}

export async function build() {
  const { build: esbuild } = await import('esbuild');
  // Into a fresh folder, then swapped in: no file of a deleted source survives, and a
  // process starting meanwhile finds either the old build or the new one.
  const tmp = `${dist}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const all = files(src);
  await esbuild({
    entryPoints: all.filter((f) => f.endsWith('.ts')),
    outdir: tmp, outbase: src, format: 'esm', platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning',
  });
  for (const name of VENDOR) {
    await esbuild({
      stdin: { contents: `export * from '${name}';`, resolveDir: root },
      bundle: true, outfile: path.join(tmp, 'vendor', `${name}.js`), format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning',
    });
  }
  for (const f of files(tmp).filter((f) => f.endsWith('.js') && !f.startsWith(path.join(tmp, 'vendor')))) {
    let code = readFileSync(f, 'utf8');
    for (const name of VENDOR) {
      let rel = path.relative(path.dirname(f), path.join(tmp, 'vendor', `${name}.js`)).split(path.sep).join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      code = code.replaceAll(`from "${name}"`, `from "${rel}"`).replaceAll(`import("${name}")`, `import("${rel}")`);
      // A subpath (kysely/helpers/…) is not in the bundle: it would load the package's many files again.
      if (code.includes(`from "${name}/`) || code.includes(`import("${name}/`)) throw new Error(`${path.relative(tmp, f)} imports a subpath of ${name}, which dist/vendor does not bundle: import from '${name}' itself`);
    }
    writeFileSync(f, code);
  }
  for (const f of all.filter((f) => !f.endsWith('.ts'))) {
    const to = path.join(tmp, path.relative(src, f));
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(f, to);
  }
  writeFileSync(path.join(tmp, '.built'), `${new Date().toISOString()}\n`);
  const old = `${dist}.old-${process.pid}`;
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(tmp, dist);
  rmSync(old, { recursive: true, force: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);
  await build();
}
