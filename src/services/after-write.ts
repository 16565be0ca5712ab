import type { Kysely } from 'kysely';
import type { DB } from '../store/schema.js';

/**
 * Runs inside the transaction of a change, after its writes, with what the change made:
 * how an operator acting through a reseller's own service commits the audit line with it.
 */
export type AfterWrite<R> = (trx: Kysely<DB>, result: R) => Promise<void>;
