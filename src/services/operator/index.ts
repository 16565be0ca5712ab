import type { ServiceCore } from '../core.js';
import { OperatorAccounts } from './operators.js';
import { ManageCatalog } from './manage-catalog.js';
import { ManageSupply } from '../manage-supply.js';

/** The operator API's use cases, built once by the composition root. */
export function createOperatorServices(core: ServiceCore) {
  return {
    operators: new OperatorAccounts(core),
    catalog: new ManageCatalog(core),
    supply: new ManageSupply(core),
  };
}
export type OperatorServices = ReturnType<typeof createOperatorServices>;
