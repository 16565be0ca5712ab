import type { Worker } from 'node:worker_threads';
import type { GroupOrder, OrderAnswer } from './sqlite-order-group.js';
import { startThread, stopThread, threadModule } from './threads/start-thread.js';
import type { OrderWriterData, OrderWriterReply, OrderWriterRequest } from './threads/sqlite-order-writer.js';

type Pending = { resolve: (a: OrderAnswer[]) => void; reject: (e: Error) => void };

/**
 * The service's side of the order writer thread (threads/sqlite-order-writer.ts): hands it
 * a group and resolves with each order's answer once the group committed. If the thread
 * dies, the groups it held are rejected and `alive` turns false: OrdersRepo then retries
 * each of their orders alone on the service's own connection, where an order of a group
 * that did commit before the thread died is found as the duplicate it is.
 *
 * The thread starts with start(), when the HTTP app gets ready (main.ts): a `topup worker`
 * on SQLite takes no orders and starts none (~16 MB and a connection less). Until then,
 * and after it died, `alive` is false and orders commit on the service's connection.
 */
export class OrderWriterThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopping = false;
  private dead = false;

  constructor(private readonly file: string) {}

  get alive(): boolean {
    return this.worker !== null && !this.dead;
  }

  start(): void {
    if (this.worker || this.stopping) return;
    const worker = startThread(threadModule('./threads/sqlite-order-writer', import.meta.url), { file: this.file } satisfies OrderWriterData);
    this.worker = worker;
    worker.on('message', (reply: OrderWriterReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if ('answers' in reply) p.resolve(reply.answers);
      else p.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
    });
    worker.on('error', (e) => this.fail(e));
    worker.on('exit', () => this.fail(new Error('the order writer thread exited')));
  }

  run(batch: GroupOrder[]): Promise<OrderAnswer[]> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.worker!.postMessage({ id, batch } satisfies OrderWriterRequest);
    });
  }

  async close(): Promise<void> {
    this.stopping = true;
    // One that exited already would only wait out stopThread's grace period.
    if (this.alive) await stopThread(this.worker!);
  }

  private fail(e: Error) {
    this.dead = true;
    for (const p of this.pending.values()) p.reject(this.stopping ? new Error('the store is closing') : e);
    this.pending.clear();
  }
}
