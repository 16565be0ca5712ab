import type { GatewayTables } from './gateway-schema.js';
import type { Generated } from 'kysely';

/**
 * Table types. Money columns are bigint minor units, read back as JS numbers (safe
 * integers); times are epoch milliseconds (bigint) so sorting and ranges are the same on
 * SQLite and PostgreSQL; booleans are 0/1 integers for the same reason.
 */
export interface ResellersTable {
  id: string;
  name: string;
  email: string;
  tier: 'gold' | 'platinum' | 'diamond';
  status: 'pending' | 'active' | 'suspended';
  balance: number;
  callback_url: string | null;
  created_at: number;
  updated_at: number;
  /** scrypt hash for the dashboard; null for accounts made by the operator or the seed. */
  password_hash: Generated<string | null>;
  /** Orders / ledger entries of this reseller so far: the last seq taken (migration 006). */
  order_seq: Generated<number>;
  ledger_seq: Generated<number>;
  /** Migration 033: the language of what the shop is sent (en | id). */
  language: Generated<Language>;
  /** Migration 040: JSON array of the optional message templates this person turned off. */
  muted_messages: Generated<string>;
  /** Migration 037: below this balance (minor units) the dashboard shows a top-up banner; null: none. */
  low_balance_threshold: Generated<number | null>;
}

export interface ApiKeysTable {
  id: string;
  reseller_id: string;
  api_key: string;
  secret_enc: string;
  created_at: number;
  revoked_at: number | null;
}

export interface IpWhitelistTable {
  reseller_id: string;
  ip: string;
  created_at: number;
}

export interface CategoriesTable {
  slug: string;
  name: string;
  type: 'game' | 'voucher';
  /** JSON array of FormField, in display order. */
  form: string;
  checker_enabled: number;
  sort_order: number;
  created_at: number;
}

export interface ProductsTable {
  code: string;
  name: string;
  category_slug: string;
  kind: 'instant' | 'voucher';
  limit_gated: number;
  enabled: number;
  sort_order: number;
  created_at: number;
}

export interface CatalogsTable {
  id: string;
  name: string;
  created_at: number;
}

/** Migration 018: a supplier's price list as of its last sync. */
export interface SupplierSkusTable {
  supplier_id: string;
  sku: string;
  name: string;
  category: string;
  brand: string;
  cost: number;
  /** Both product statuses true and in stock when synced (the cut-off window aside). */
  buyable: number;
  /** "HH:MM-HH:MM" in the supplier's time zone, null: none. */
  cut_off: string | null;
  synced_at: number;
}

export interface CatalogPricesTable {
  catalog_id: string;
  product_code: string;
  tier: 'gold' | 'platinum' | 'diamond';
  price: number;
}

export interface ResellerCatalogsTable {
  reseller_id: string;
  catalog_id: string;
}

export interface SuppliersTable {
  id: string;
  name: string;
  adapter: string;
  enabled: number;
  status: 'active' | 'maintenance';
  credentials_enc: string | null;
  created_at: number;
  /** Migration 018: the deposit as last read, the low-deposit threshold, when it was flagged. */
  balance: Generated<number | null>;
  balance_checked_at: Generated<number | null>;
  balance_threshold: Generated<number | null>;
  balance_flagged_at: Generated<number | null>;
  /** Migration 020: what a price-list sync does with a route whose cost reached a price (domain/below-cost-policy). */
  below_cost_policy: Generated<'reprice' | 'disable_route'>;
}

export interface ProductRoutesTable {
  id: string;
  product_code: string;
  supplier_id: string;
  supplier_sku: string;
  cost: number;
  priority: number;
  enabled: number;
  created_at: number;
  available: Generated<number | null>;
  checked_at: Generated<number | null>;
  /** Migration 018: the adapter's route options as JSON (domain/route-options.ts). */
  options: Generated<string | null>;
}

export interface OrdersTable {
  id: string;
  reseller_id: string;
  ref_id: string;
  product_code: string;
  product_name: string;
  category_slug: string;
  target: string;
  zone: string | null;
  price: number;
  status: 'processing' | 'success' | 'failed' | 'refunded';
  serial_number: string | null;
  failure_code: string | null;
  failure_reason: string | null;
  created_at: number;
  completed_at: number | null;
  updated_at: number;
  supplier_id: Generated<string | null>;
  supplier_sku: Generated<string | null>;
  routes_tried: Generated<number>;
  /** The attempt in flight's reference at its supplier; null: the order id (migration 025). */
  supplier_ref: Generated<string | null>;
  needs_attention: Generated<number>;
  checker_verified: Generated<number>;
  /** Per-reseller 1..N, gap-free, taken in the order transaction (migration 006). */
  seq: Generated<number | null>;
  /** What the supplier said about the order, kept for disputes (migration 026). */
  supplier_serial: Generated<string | null>;
  supplier_message: Generated<string | null>;
  /** What the supplier charged for the attempt that delivered, minor units; null: not delivered or not known (migration 036). */
  cost: Generated<number | null>;
}

export interface SupplierHealthTable {
  supplier_id: string;
  consecutive_failures: number;
  last_error: string | null;
  updated_at: number;
  /** The circuit breaker (migration 026): closed, open or half_open. */
  breaker: Generated<string>;
  breaker_reason: Generated<string | null>;
  breaker_since: Generated<number | null>;
  /** An open breaker is probed from then on. */
  breaker_retry_at: Generated<number | null>;
  /** Half-open: real orders let through, and definite answers heard back. */
  probe_orders: Generated<number>;
  probe_answers: Generated<number>;
}

export interface SandboxOrdersTable {
  reference: string;
  sku: string;
  target: string;
  submissions: number;
  ready_at: number;
  created_at: number;
}

export interface SystemStateTable {
  key: string;
  value: string;
}

/** deposit and deposit_reversal: money in from a deposit, and its reversal (migration 034). */
export type LedgerEntryType = 'order_debit' | 'order_refund' | 'credit' | 'debit' | 'deposit' | 'deposit_reversal';

export interface LedgerEntriesTable {
  id: Generated<number>;
  reseller_id: string;
  type: LedgerEntryType;
  /** Signed: negative for money leaving the wallet. */
  amount: number;
  balance_after: number;
  order_id: string | null;
  note: string | null;
  created_at: number;
  /** Per-reseller 1..N, gap-free; a trigger fills it for writers that leave it out (migration 006). */
  seq: Generated<number | null>;
  /** The order's seq, set exactly when order_id is: the per-order uniqueness is keyed by it (migration 009). */
  order_seq: number | null;
  /** The deposit a deposit or deposit_reversal entry belongs to; unique with type (migration 034). */
  deposit_id: Generated<string | null>;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  run_at: number;
  attempts: number;
  locked_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: number;
  /** Jobs of one group (e.g. one reseller's callbacks) run at most a few at a time. */
  group_key: Generated<string | null>;
}

export interface CallbackDeliveriesTable {
  id: string;
  order_id: string;
  reseller_id: string;
  round: number;
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  attempts: number;
  next_attempt_at: number | null;
  url: string | null;
  created_at: number;
  updated_at: number;
}

export interface CallbackAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number;
  http_status: number | null;
  error: string | null;
  response_snippet: string | null;
}

export interface OperatorsTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: number;
  disabled_at: number | null;
  /** Migration 033: the language of what the operator is sent (en | id). */
  language: Generated<Language>;
  /** Migration 040: JSON array of the optional message templates this person turned off. */
  muted_messages: Generated<string>;
}

/** Migration 032: the roles an operator holds (src/domain/operator-roles.ts), one row a role. */
export interface OperatorRolesTable {
  operator_id: string;
  role: string;
}

export type SessionSubject = 'operator' | 'reseller';

export interface SessionsTable {
  /** sha256 (hex) of the bearer token: a leaked table does not yield usable tokens. */
  token_hash: string;
  subject_kind: SessionSubject;
  subject_id: string;
  created_at: number;
  expires_at: number;
  /** Migration 035: the public id (null for sessions opened before it), device and last use. */
  id: string | null;
  ip: string | null;
  user_agent: string | null;
  last_used_at: number | null;
}

/** Migration 035: a person's TOTP secret (sealed); enabled_at null while enrolment waits for a code. */
export interface TwoFactorTable {
  subject_kind: SessionSubject;
  subject_id: string;
  secret_enc: string;
  enabled_at: number | null;
  /** The last accepted time step: a code of it or an earlier step is refused. */
  last_step: number | null;
  created_at: number;
}

export interface TwoFactorRecoveryCodesTable {
  subject_kind: SessionSubject;
  subject_id: string;
  /** sha256 (hex) of the normalized code. */
  code_hash: string;
  used_at: number | null;
}

/** Migration 035: a browser's device cookie per person; two_factor_until while it is remembered. */
export interface DevicesTable {
  token_hash: string;
  subject_kind: SessionSubject;
  subject_id: string;
  created_at: number;
  last_seen_at: number;
  two_factor_until: number | null;
}

export interface SignInsTable {
  id: string;
  subject_kind: SessionSubject;
  subject_id: string;
  created_at: number;
  ip: string;
  user_agent: string;
  new_device: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  operator_id: string;
  action: string;
  target_kind: string;
  target_id: string;
  /** JSON snapshots; never secrets. */
  before: string | null;
  after: string | null;
  note: string | null;
  created_at: number;
  /** Migration 039: the second operator who approved the action (four-eyes); null: none needed. */
  approved_by: Generated<string | null>;
}

/** Migration 039: an action waiting for a second operator (domain/four-eyes.ts). */
export interface ApprovalRequestsTable {
  id: string;
  kind: string;
  target_kind: string;
  target_id: string;
  /** Minor units; null for supplier credentials. */
  amount: number | string | null;
  note: string | null;
  /** Sealed with the SecretBox: the new supplier credentials. Never shown. */
  payload_enc: string | null;
  state: string;
  requested_by: string;
  requested_at: number;
  decided_by: string | null;
  decided_at: number | null;
  reason: string | null;
  /** JSON: what the applied action produced. */
  result: string | null;
}


/** Migration 036: the daily aggregates of profit reports (src/store/report-daily-sql.ts); readers sum over shards. */
export interface ReportDailyTable {
  day: number;
  product_code: string;
  category_slug: string;
  supplier_id: string;
  reseller_id: string;
  tier: string;
  shard: number;
  delivered: number;
  revenue: number;
  cost: number;
  cost_unknown: number;
  refunds: number;
  refunded: number;
  manual_refunds: number;
  manual_refunded: number;
  manual_refunded_delivered: number;
}

export interface DB extends GatewayTables {
  report_daily: ReportDailyTable;
  resellers: ResellersTable;
  api_keys: ApiKeysTable;
  ip_whitelist: IpWhitelistTable;
  categories: CategoriesTable;
  products: ProductsTable;
  catalogs: CatalogsTable;
  catalog_prices: CatalogPricesTable;
  supplier_skus: SupplierSkusTable;
  reseller_catalogs: ResellerCatalogsTable;
  suppliers: SuppliersTable;
  product_routes: ProductRoutesTable;
  orders: OrdersTable;
  ledger_entries: LedgerEntriesTable;
  jobs: JobsTable;
  supplier_health: SupplierHealthTable;
  sandbox_orders: SandboxOrdersTable;
  system_state: SystemStateTable;
  order_counts: OrderCountsTable;
  cache_versions: CacheVersionsTable;
  callback_deliveries: CallbackDeliveriesTable;
  callback_attempts: CallbackAttemptsTable;
  operators: OperatorsTable;
  operator_roles: OperatorRolesTable;
  sessions: SessionsTable;
  two_factor: TwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  devices: DevicesTable;
  sign_ins: SignInsTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
  store_settings: StoreSettingsTable;
  reseller_invitations: ResellerInvitationsTable;
  supply_refresh: SupplyRefreshTable;
  api_errors: ApiErrorsTable;
  margin_rules: MarginRulesTable;
  attention_items: AttentionItemsTable;
  outbox_messages: OutboxMessagesTable;
  password_resets: PasswordResetsTable;
  bank_accounts: BankAccountsTable;
  deposits: DepositsTable;
  alert_state: AlertStateTable;
  bank_mutations: BankMutationsTable;
  approval_requests: ApprovalRequestsTable;
}

/** Migration 020: one margin rule per category or catalog (the catalog's wins). */
export interface MarginRulesTable {
  id: string;
  scope_kind: 'category' | 'catalog';
  scope_id: string;
  /** Minor units. */
  step: number;
  /** JSON: {tier: {percent_bp, fixed}} for the tiers the rule prices; fixed in minor units. */
  tiers: string;
  created_at: number;
  updated_at: number;
}

/** Migration 020: things other than orders a person should look at; open until resolved. */
export interface AttentionItemsTable {
  id: string;
  /** 'below_cost': a sync found a route's cost at or above a price of its product. */
  kind: string;
  target_kind: string;
  target_id: string;
  summary: string;
  /** JSON; never secrets. */
  details: string | null;
  created_at: number;
  resolved_at: number | null;
  resolved_by: string | null;
}

/** Settings of the store itself (migration 028): the master key's sealed sentinel. */
export interface StoreSettingsTable {
  key: string;
  value: string;
}

/** Idempotency-Key of operator money changes (migration 014); scope is the operator id or "cli". */
export interface IdempotencyKeysTable {
  scope: string;
  idem_key: string;
  /** sha256 of the request (method, path, body): the same key with another request is refused. */
  fingerprint: string;
  /** The answer's `data` as JSON, written in the change's own transaction (null until then, seen by none). */
  response: string | null;
  created_at: number;
}

/** One-time links where a reseller sets its dashboard password (migration 016). */
export interface ResellerInvitationsTable {
  id: string;
  reseller_id: string;
  /** sha256 (hex) of the token: the token itself is shown once to the operator. */
  token_hash: string;
  created_by: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

/** The last supply refresh (one row, name 'last'; migration 016). */
export interface SupplyRefreshTable {
  name: string;
  started_at: number;
  finished_at: number;
  availability_check_failed: number;
}

/** Refused API v1 requests of identifiable resellers, kept 7 days, 500 a reseller (migration 017). */
export interface ApiErrorsTable {
  id: Generated<number>;
  reseller_id: string;
  at: number;
  method: string;
  path: string;
  http_status: number;
  error: string;
  message: string;
  ip: string;
  request_id: string;
}

/** Orders per reseller, UTC hour of created_at and status; kept by triggers (migrations 006, 008, 012). */
export interface OrderCountsTable {
  reseller_id: string;
  /** floor(created_at / 3600000): the UTC hour (migration 008). */
  hour: number;
  /** ALL_ORDERS (every order of the hour) or a terminal status; `processing` has no row (migration 012). */
  status: string;
  /** PostgreSQL only (migration 013): a terminal status's count is spread over 16 rows; readers sum them. */
  shard?: number;
  n: number;
}

/** order_counts' status of the row that counts every order of its hour (migration 012). */
export const ALL_ORDERS = '*';

/** Bumped by triggers whenever data an in-process cache holds changes (migration 006). */
export interface CacheVersionsTable {
  name: string;
  version: number;
}

/** The languages messages are written in (migration 033). */
export type Language = 'en' | 'id';

export type MessageState = 'pending' | 'sent' | 'kept' | 'failed';

/** Messages to people (migration 033): written with their event, sent by the worker. */
export interface OutboxMessagesTable {
  id: string;
  /** The event and recipient: a message is written at most once per key. */
  dedupe_key: string;
  template: string;
  recipient_kind: 'operator' | 'reseller' | 'telegram';
  recipient_id: string | null;
  to_address: string;
  language: Language;
  subject: string;
  body_text: string;
  body_html: string;
  /** pending: to send; kept: no SMTP configured, readable in the console; failed: gave up. */
  state: MessageState;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

/** One-time password-reset links (migration 033); the token is stored as its sha256 only. */
export interface PasswordResetsTable {
  id: string;
  subject_kind: SessionSubject;
  subject_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Migration 034: the bank accounts resellers transfer deposits to. */
export interface BankAccountsTable {
  id: string;
  bank: string;
  number: string;
  holder: string;
  active: number;
  /** JSON: the column mapping of this bank's statement export; null until saved. */
  statement_mapping: string | null;
  /** Migration 037: the mutation service's id of this account (Moota's bank_id). */
  mutation_bank_id: Generated<string | null>;
  created_at: number;
  updated_at: number;
}

/** Migration 034: a deposit by bank transfer (a ticket) or by payment gateway. */
export interface DepositsTable {
  /** DEP-…, shown to people. */
  id: string;
  reseller_id: string;
  channel: 'bank' | 'gateway';
  state: string;
  /** Minor units credited to the wallet. */
  amount: number;
  /** Minor units the reseller pays: amount + unique code, or amount + a fee passed on. */
  payable: number;
  unique_code: number | null;
  fee: number;
  bank_account_id: string | null;
  sender_name: string | null;
  method: string | null;
  gateway_order_id: string | null;
  gateway_url: string | null;
  expires_at: number;
  paid_at: number | null;
  matched_by: string | null;
  reference: string | null;
  actor: string | null;
  created_at: number;
  updated_at: number;
}

/** Migration 040: what the operator-alert scan must remember between runs. */
export interface AlertStateTable {
  key: string;
  value: string;
  updated_at: number;
}

/** Migration 037: a bank mutation seen once per (bank account, identity). */
export interface BankMutationsTable {
  id: string;
  bank_account_id: string;
  identity: string;
  source: 'statement' | 'webhook';
  booked_on: string;
  description: string;
  amount: number;
  direction: 'CR' | 'DB';
  /** matched | review | unmatched | assigned | handled | debit */
  state: string;
  deposit_id: string | null;
  actor: string | null;
  note: string | null;
  created_at: number;
  updated_at: number;
}
