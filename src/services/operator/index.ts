import type { ServiceCore } from '../core.js';
import { OperatorAccounts } from './operators.js';

/** The operator API's use cases, built once by the composition root. */
export function createOperatorServices(core: ServiceCore) {
  return {
    operators: new OperatorAccounts(core),
  };
}
export type OperatorServices = ReturnType<typeof createOperatorServices>;
