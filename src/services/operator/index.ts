import type { ServiceCore } from '../core.js';
import { PasswordResets } from '../password-reset.js';
import { MessageSettings } from '../message-settings.js';
import { OperatorAccounts } from './operators.js';
import { ManageCatalog } from './manage-catalog.js';
import { ManageSupply } from '../manage-supply.js';
import { AdjustWallet } from './adjust-wallet.js';
import { AuditLog } from './audit-log.js';
import { ManageResellers } from './manage-resellers.js';
import { OperatorOrders } from './operator-orders.js';
import { Idempotency } from './idempotency.js';
import { ResellerSettings } from './reseller-settings.js';
import { ResellerInvitations } from './invitations.js';
import { SyncSupplierPrices } from '../sync-supplier-prices.js';
import { Overview } from './overview.js';
import { OverviewRepo } from '../../store/overview-repo.js';
import { MarginRules } from './margin-rules.js';
import { AttentionItems } from './attention-items.js';
import { ImportSupplierSkus } from '../import-supplier-skus.js';
import { OutboxMessages } from './messages.js';
import { DepositSettingsService } from '../deposits/deposit-settings.js';
import { OperatorDeposits } from '../deposits/operator-deposits.js';
import { StatementImport } from '../deposits/statement-import.js';
import { Approvals } from './approvals.js';
import { ProfitReports } from './profit-report.js';
import { Statements } from '../statements.js';

/** The operator API's use cases, built once by the composition root. */
export function createOperatorServices(core: ServiceCore) {
  const supply = new ManageSupply(core);
  const wallet = new AdjustWallet(core);
  const orders = new OperatorOrders(core);
  const reports = new ProfitReports(core);
  return {
    operators: new OperatorAccounts(core),
    catalog: new ManageCatalog(core),
    supply,
    resellers: new ManageResellers(core),
    resellerSettings: new ResellerSettings(core),
    invitations: new ResellerInvitations(core),
    wallet,
    orders,
    approvals: new Approvals(core, { wallet, orders, supply }),
    audit: new AuditLog(core),
    idempotency: new Idempotency(core),
    priceSync: new SyncSupplierPrices(core),
    marginRules: new MarginRules(core),
    imports: new ImportSupplierSkus(core),
    attention: new AttentionItems(core),
    messages: new OutboxMessages(core),
    depositSettings: new DepositSettingsService(core),
    deposits: new OperatorDeposits(core),
    statementImport: new StatementImport(core),
    passwordResets: new PasswordResets(core),
    language: new MessageSettings(core),
    overview: new Overview(new OverviewRepo(core.db), core, () => reports.today()),
    reports,
    statements: new Statements(core),
    currency: core.currency,
    /** The origin of URLs given out to others (a supplier's webhook URL). */
    publicBaseUrl: core.publicBaseUrl,
  };
}
export type OperatorServices = ReturnType<typeof createOperatorServices>;
