import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const tsxRequire = createRequire(import.meta.url).resolve('tsx/cjs/api');

/**
 * Starts a TypeScript module as a worker thread. There is no build step (tsx runs the
 * sources), so the thread's entry is a one-line bootstrap that loads the module through
 * tsx's require: compiled in the thread itself. (tsx's ESM register() would start one more
 * thread per worker for its loader hooks, ~20 MB each; and on Node 20 a worker's
 * `--import tsx` applies only after its entry was resolved.) Thread modules therefore use
 * no top-level await and no import.meta.
 */
export function startThread(module: URL, workerData: unknown): Worker {
  const file = JSON.stringify(fileURLToPath(module));
  return new Worker(`require(${JSON.stringify(tsxRequire)}).require(${file}, ${file})`, { eval: true, workerData });
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
