/**
 * Orders waiting for a group commit, handed out as groups that never share a reseller with
 * a group still in flight: a reseller's orders commit one group after another.
 *
 * Why: every order of a group updates its reseller's row (the guarded debit) and that
 * reseller's order count, each row lock held until the group commits. Two groups of one
 * reseller in flight on PostgreSQL only queue on those locks, and the queued group's
 * snapshot keeps the other's dead row versions from being pruned: the hot row's versions
 * pile up and every lookup of it (the debit, both foreign-key checks of each order) walks
 * them. Measured on the group function alone, one reseller, 12 orders a group: one group
 * in flight ~6,000 orders/s at ~2 ms a call; two in flight ~1,200 orders/s at ~21 ms; four
 * ~1,400 orders/s at ~35 ms, with ~1,000 dead versions of the reseller's row. Groups of
 * different resellers still run side by side.
 */
export class OrderGroupQueue<T extends { o: { resellerId: string } }> {
  private waiting: T[] = [];
  private readonly inFlight = new Set<string>();

  get length(): number {
    return this.waiting.length;
  }

  push(item: T): void {
    this.waiting.push(item);
  }

  /**
   * The next group: up to maxSize waiting orders, oldest first, of resellers no group in
   * flight holds. Empty when every waiting order's reseller is in flight. The group's
   * resellers are in flight until done() is called with it.
   */
  take(maxSize: number): T[] {
    const group: T[] = [];
    const rest: T[] = [];
    const behind = new Set<string>();
    for (const item of this.waiting) {
      const r = item.o.resellerId;
      if (group.length < maxSize && !this.inFlight.has(r) && !behind.has(r)) group.push(item);
      else {
        // Once one of a reseller's orders stays behind, its later ones do too: a reseller's
        // orders commit in the order they came.
        behind.add(r);
        rest.push(item);
      }
    }
    this.waiting = rest;
    for (const item of group) this.inFlight.add(item.o.resellerId);
    return group;
  }

  done(group: readonly T[]): void {
    for (const item of group) this.inFlight.delete(item.o.resellerId);
  }
}
