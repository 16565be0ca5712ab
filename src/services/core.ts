import type { Kysely } from 'kysely';
import type { SupplierResolver } from './fulfil-order.js';
import type { PasswordHasher } from '../adapters/password-hasher.js';
import type { SecretBox } from '../adapters/secret-box.js';
import type { AccountsRepo } from '../store/accounts-repo.js';
import type { AuditRepo } from '../store/audit-repo.js';
import type { CallbacksRepo } from '../store/callbacks-repo.js';
import type { CatalogRepo } from '../store/catalog-repo.js';
import type { Dialect } from '../store/db.js';
import type { LedgerRepo } from '../store/ledger-repo.js';
import type { OperatorOrdersRepo } from '../store/operator-orders-repo.js';
import type { OrdersRepo } from '../store/orders-repo.js';
import type { ResellersRepo } from '../store/resellers-repo.js';
import type { DB } from '../store/schema.js';
import type { SupplyRepo } from '../store/supply-repo.js';
import type { Clock, CurrencySettings, IdGenerator } from './ports.js';
import type { RefreshSupply } from './refresh-supply.js';
import type { ResendCallback } from './resend-callback.js';
import type { ResellerQueries } from './reseller-queries.js';
import type { SetCallbackUrl } from './set-callback-url.js';
import type { Sessions } from './sessions.js';
import type { TwoFactor } from './two-factor.js';
import type { SessionList } from './session-list.js';
import type { Notifier } from './notifier.js';

/**
 * What the operator and dashboard services are built from, assembled once by the
 * composition root (src/main.ts). Services take the parts they use; none reads config or
 * the environment.
 */
export interface ServiceCore {
  db: Kysely<DB>;
  dialect: Dialect;
  clock: Clock;
  ids: IdGenerator;
  secrets: SecretBox;
  hasher: PasswordHasher;
  currency: CurrencySettings;
  /** Four-eyes: money changes above this (minor units) wait for a second operator; null: off (FOUR_EYES_THRESHOLD=0). */
  fourEyesThreshold: number | null;
  repos: {
    resellers: ResellersRepo;
    catalog: CatalogRepo;
    orders: OrdersRepo;
    operatorOrders: OperatorOrdersRepo;
    ledger: LedgerRepo;
    accounts: AccountsRepo;
    audit: AuditRepo;
    callbacks: CallbacksRepo;
    supply: SupplyRepo;
  };
  sessions: Sessions;
  /** Two-factor sign-in of operators and resellers alike. */
  twoFactor: TwoFactor;
  /** A person's sessions and sign-in history. */
  sessionList: SessionList;
  /** The supplier adapters by route (price-list sync asks a supplier directly). */
  suppliers: SupplierResolver;
  /** The reseller's read side (orders, wallet) that API v1 serves, shared by the dashboard. */
  queries: ResellerQueries;
  resendCallback: ResendCallback;
  setCallbackUrl: SetCallbackUrl;
  /** The supply refresh the background runs every SUPPLY_REFRESH_MS (the operator may run it now). */
  refreshSupply: RefreshSupply;
  /** Where people reach this service (PUBLIC_BASE_URL), for links handed out; no trailing slash. */
  publicBaseUrl: string;
  /** The operator's time zone for reports (REPORT_TIME_ZONE): its name and fixed offset. */
  reportTimeZone: { name: string; offsetMinutes: number };
  /** Writes messages to people into the outbox, in the event's transaction. */
  notifier: Notifier;
  /** Wakes this process's job runner after work was enqueued. */
  wake(): void;
}
