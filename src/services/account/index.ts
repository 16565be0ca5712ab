import type { ServiceCore } from '../core.js';

/** The reseller dashboard API's use cases, built once by the composition root. */
export function createAccountServices(_core: ServiceCore) {
  return {};
}
export type AccountServices = ReturnType<typeof createAccountServices>;
