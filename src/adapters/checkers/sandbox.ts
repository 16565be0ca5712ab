import { sandboxAccount } from '../../domain/sandbox-accounts.js';
import type { AccountChecker, CheckVerdict } from './types.js';

/** Verdicts from the sandbox test-account table; every other account is valid. */
export const sandboxChecker: AccountChecker = {
  async check(q): Promise<CheckVerdict> {
    const verdict = sandboxAccount(q.target).verdict;
    if (verdict === 'no_answer') return { verdict: 'unavailable' };
    return { verdict, nickname: verdict === 'valid' ? `Player${q.target.slice(-4)}` : null };
  },
};
