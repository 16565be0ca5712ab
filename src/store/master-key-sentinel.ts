import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

const KEY = 'master_key_sentinel';

/** The master key's sealed sentinel in store_settings (migration 028), and the secrets already sealed. */
export function masterKeySentinel(db: Kysely<DB>) {
  return {
    async read(): Promise<string | null> {
      return (await db.selectFrom('store_settings').select('value').where('key', '=', KEY).executeTakeFirst())?.value ?? null;
    },
    async writeOnce(sealed: string): Promise<void> {
      await db.insertInto('store_settings').values({ key: KEY, value: sealed }).onConflict((oc) => oc.column('key').doNothing()).execute();
    },
    async anySealed(): Promise<string | null> {
      const key = await db.selectFrom('api_keys').select('secret_enc').limit(1).executeTakeFirst();
      if (key) return key.secret_enc;
      const supplier = await db.selectFrom('suppliers').select('credentials_enc').where('credentials_enc', 'is not', null).limit(1).executeTakeFirst();
      return supplier?.credentials_enc ?? null;
    },
  };
}
