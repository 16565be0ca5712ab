/**
 * Growing locks against guessing: the first `freeFailures` failures cost nothing, each one
 * after locks the next attempt out for `firstLockMs`, doubling per failure up to `maxLockMs`.
 */
export interface LockoutRule {
  freeFailures: number;
  firstLockMs: number;
  maxLockMs: number;
}

/**
 * The lock each failure earns, by count: element i is the lock after the (i+1)-th failure;
 * past the end, the last element holds. Finite, so a store can apply it without the rule.
 */
export function lockSchedule(rule: LockoutRule): number[] {
  const schedule: number[] = Array.from({ length: rule.freeFailures }, () => 0);
  for (let lock = Math.max(1, rule.firstLockMs); ; lock *= 2) {
    schedule.push(Math.min(lock, rule.maxLockMs));
    if (lock >= rule.maxLockMs) return schedule;
  }
}
