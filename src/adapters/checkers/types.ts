/** A game-account checker: a definitive verdict, or no answer. */
export type CheckVerdict =
  | { verdict: 'valid'; nickname: string | null }
  | { verdict: 'INVALID_ID' | 'REGION_LOCK' | 'PURCHASE_LIMIT'; nickname: string | null }
  | { verdict: 'unavailable' };

export interface AccountCheckQuery {
  categorySlug: string;
  target: string;
  zone: string | null;
  productCode: string | null;
}

export interface AccountChecker {
  check(q: AccountCheckQuery): Promise<CheckVerdict>;
}
