/**
 * The reference an order is known by at a supplier: one per (order, route) attempt. A
 * supplier keeps a reference for good, refused transactions included (Digiflazz answers a
 * second use with rc 49), so a second route at the same supplier account needs its own.
 * The first attempt is the order id itself; attempt n after it is `<order id>-r<n>`. Every
 * check of an attempt asks with that attempt's reference.
 */
export function nextSupplierReference(orderId: string, previous: string | null): string {
  if (previous === null) return orderId;
  const n = previous === orderId ? 1 : Number(/-r(\d+)$/.exec(previous)?.[1] ?? 1);
  return `${orderId}-r${n + 1}`;
}

/** The order a supplier reference belongs to (a webhook or callback names only the reference). */
export function orderIdOfReference(reference: string): string {
  return reference.replace(/-r\d+$/, '');
}
