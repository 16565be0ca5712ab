import type { SecretBox } from '../adapters/secret-box.js';

/** Where the master key's sentinel is kept (src/store/master-key-sentinel.ts). */
export interface MasterKeySentinelStore {
  read(): Promise<string | null>;
  /** Writes it unless one is there already (two first starts at once keep the first). */
  writeOnce(sealed: string): Promise<void>;
  /** Any secret the store holds sealed already (an API secret, supplier credentials), or null. */
  anySealed(): Promise<string | null>;
}

/** The master key cannot open this store's secrets: the process must not start. */
export class WrongMasterKey extends Error {
  override name = 'WrongMasterKey';
}

const SENTINEL = 'topup master key sentinel v1';

/**
 * A process whose master key cannot open the store's secrets would answer 500 to every
 * signed request while reporting ready: it is refused at start instead. The store keeps a
 * sentinel sealed with its key, written by the first start (checked first against a secret
 * sealed already, for a store older than the sentinel); every start must open it.
 */
export async function checkMasterKey(store: MasterKeySentinelStore, secrets: SecretBox, refusal: string): Promise<void> {
  const opens = (sealed: string, plain?: string) => {
    try {
      const text = secrets.open(sealed);
      return plain === undefined || text === plain;
    } catch {
      return false;
    }
  };
  let sentinel = await store.read();
  if (sentinel === null) {
    const existing = await store.anySealed();
    if (existing !== null && !opens(existing)) throw new WrongMasterKey(refusal);
    await store.writeOnce(secrets.seal(SENTINEL));
    sentinel = await store.read();
  }
  if (sentinel === null || !opens(sentinel, SENTINEL)) throw new WrongMasterKey(refusal);
}
