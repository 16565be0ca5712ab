/** Collaborators every service receives from the composition root instead of reaching for globals. */
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

export interface IdGenerator {
  uuid(): string;
}

export interface CurrencySettings {
  code: string;
  decimals: number;
  /** The largest amount one operation may move (a credit, a debit, a price), in minor units (MAX_OPERATION_AMOUNT). */
  maxAmount: number;
}
