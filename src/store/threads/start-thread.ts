import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';


/**
 * A store thread's young generation (V8's default lets it grow to ~48 MB). The threads
 * allocate little per message (a group of orders is a few KB), but under load the order
 * writer's young generation grew to its default bound all the same: B3/B4 peak RSS was
 * 255-299 MB with it and 207-223 MB with 6 MB, B1's throughput the same.
 */
export const THREAD_LIMITS = { maxYoungGenerationSizeMb: 6 };

/**
 * A thread module beside `base` (the caller's import.meta.url), named without extension:
 * `.js` in the compiled build (dist/), `.ts` when the sources run (tests under Vitest).
 */
export function threadModule(name: string, base: string): URL {
  return new URL(`${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/**
 * Starts a thread module as a worker thread: the compiled `.js` directly. A `.ts` source
 * (tests) starts through a one-line bootstrap that loads it with tsx's require, compiled in
 * the thread itself. (tsx's ESM register() would start one more thread per worker for its
 * loader hooks, ~20 MB each; and on Node 20 a worker's `--import tsx` applies only after its
 * entry was resolved.) Thread modules therefore use no top-level await and no import.meta.
 */
export function startThread(module: URL, workerData: unknown): Worker {
  if (!module.pathname.endsWith('.ts')) return new Worker(module, { workerData, resourceLimits: THREAD_LIMITS });
  // tsx is a development dependency: resolved only when sources run.
  const tsxRequire = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const file = JSON.stringify(fileURLToPath(module));
  return new Worker(`require(${JSON.stringify(tsxRequire)}).require(${file}, ${file})`, { eval: true, workerData, resourceLimits: THREAD_LIMITS });
}

/**
 * Asks a thread to stop (it closes its own resources and exits); one that does not answer
 * within 5 s, or has died already, is terminated.
 */
export async function stopThread(worker: Worker): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => void worker.terminate().finally(resolve), 5_000);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    worker.postMessage({ stop: true });
  });
}
