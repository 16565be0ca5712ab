import type { AccountChecker, AccountCheckQuery, CheckVerdict } from '../adapters/checkers/types.js';

/**
 * Asks the checker with a time limit. No definitive answer in time (or an error) is
 * 'unavailable': orders then proceed, POST /validation answers CHECKER_UNAVAILABLE.
 */
export async function checkWithTimeout(checker: AccountChecker, q: AccountCheckQuery, timeoutMs: number): Promise<CheckVerdict> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckVerdict>((resolve) => {
    timer = setTimeout(() => resolve({ verdict: 'unavailable' }), timeoutMs);
  });
  try {
    return await Promise.race([checker.check(q).catch((): CheckVerdict => ({ verdict: 'unavailable' })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export const REFUSAL_MESSAGES = {
  INVALID_ID: 'the game account does not exist; check the player ID (nothing was charged, and the ref_id can be reused)',
  REGION_LOCK: "the game account's region cannot receive this product (nothing was charged, and the ref_id can be reused)",
  PURCHASE_LIMIT: 'this account has already used its allowance for this product (nothing was charged, and the ref_id can be reused)',
} as const;
