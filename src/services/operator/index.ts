import type { ServiceCore } from '../core.js';
import { OperatorAccounts } from './operators.js';
import { AdjustWallet } from './adjust-wallet.js';
import { AuditLog } from './audit-log.js';
import { ManageResellers } from './manage-resellers.js';
import { OperatorOrders } from './operator-orders.js';

/** The operator API's use cases, built once by the composition root. */
export function createOperatorServices(core: ServiceCore) {
  return {
    operators: new OperatorAccounts(core),
    resellers: new ManageResellers(core),
    wallet: new AdjustWallet(core),
    orders: new OperatorOrders(core),
    audit: new AuditLog(core),
    currency: core.currency,
  };
}
export type OperatorServices = ReturnType<typeof createOperatorServices>;
