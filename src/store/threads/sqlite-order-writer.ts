/**
 * Worker thread: commits order groups (sqlite-order-group.ts) on its own connection, so
 * the SQLite work of ingestion (the statements, the commit's WAL writes) runs on another
 * core than the service's HTTP. Messages: { id, batch } in, { id, answers } or
 * { id, error } out (error: the group's transaction failed and nothing of it committed).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../sqlite-connection.js';
import { sqliteOrderGroup, type GroupOrder, type OrderAnswer } from '../sqlite-order-group.js';

export interface OrderWriterData {
  file: string;
}

export type OrderWriterRequest = { id: number; batch: GroupOrder[] } | { stop: true };
export type OrderWriterReply = { id: number; answers: OrderAnswer[] } | { id: number; error: { message: string; code?: string } };

const { file } = workerData as OrderWriterData;
const sqlite = openSqlite(file, { checkpointInBackground: true });
// Prepared at the first group: the thread starts before the service migrates the store.
let runGroup: ReturnType<typeof sqliteOrderGroup> | null = null;
const port = parentPort!;

port.on('message', (m: OrderWriterRequest) => {
  if ('stop' in m) {
    sqlite.close();
    port.close();
    return;
  }
  let reply: OrderWriterReply;
  try {
    runGroup ??= sqliteOrderGroup(sqlite);
    reply = { id: m.id, answers: runGroup(m.batch) };
  } catch (e) {
    const err = e as { message?: string; code?: string };
    reply = { id: m.id, error: { message: String(err.message ?? e), code: err.code } };
  }
  port.postMessage(reply);
});
