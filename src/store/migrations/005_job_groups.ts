import type { Kysely } from 'kysely';

/**
 * Jobs may belong to a group (deliver_callback: the reseller), so a runner can bound how
 * many of one group run at once: one reseller's hanging receivers never fill every slot.
 */
export const jobGroups = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('jobs').addColumn('group_key', 'text').execute();
  },
};
