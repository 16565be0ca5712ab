/** The ID check's definitive verdicts that refuse an order before any charge. */
export const REFUSING_VERDICTS = ['INVALID_ID', 'REGION_LOCK', 'PURCHASE_LIMIT'] as const;
export type RefusingVerdict = (typeof REFUSING_VERDICTS)[number];

export const refusesOrder = (verdict: string): verdict is RefusingVerdict => (REFUSING_VERDICTS as readonly string[]).includes(verdict);
