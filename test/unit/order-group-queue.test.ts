import { describe, expect, it } from 'vitest';
import { OrderGroupQueue } from '../../src/store/order-group-queue.js';

const order = (resellerId: string, n: number) => ({ o: { resellerId }, n });
const ns = (group: { n: number }[]) => group.map((g) => g.n);

describe('OrderGroupQueue', () => {
  it('hands out the oldest orders, up to the group size, and keeps the rest in order', () => {
    const q = new OrderGroupQueue<ReturnType<typeof order>>();
    for (let i = 1; i <= 5; i++) q.push(order(`r${i}`, i));
    expect(ns(q.take(3))).toEqual([1, 2, 3]);
    expect(q.length).toBe(2);
    expect(ns(q.take(3))).toEqual([4, 5]);
  });

  it('never hands out a reseller whose group is still in flight, until that group is done', () => {
    const q = new OrderGroupQueue<ReturnType<typeof order>>();
    q.push(order('hot', 1));
    const first = q.take(32);
    q.push(order('hot', 2));
    q.push(order('other', 3));
    q.push(order('hot', 4));
    expect(ns(q.take(32))).toEqual([3]); // hot is in flight: only the other reseller's order
    expect(q.take(32)).toEqual([]); // only hot's orders wait
    q.done(first);
    expect(ns(q.take(32))).toEqual([2, 4]);
  });

  it("keeps one reseller's orders in arrival order when a group fills up", () => {
    const q = new OrderGroupQueue<ReturnType<typeof order>>();
    for (const [r, n] of [['a', 1], ['b', 2], ['a', 3], ['b', 4], ['a', 5]] as const) q.push(order(r, n));
    const g = q.take(2);
    expect(ns(g)).toEqual([1, 2]);
    q.done(g);
    // a's 3 and 5 never overtake each other, nor b's 4.
    expect(ns(q.take(2))).toEqual([3, 4]);
    expect(ns(q.take(2))).toEqual([]); // a and b are both in flight
  });
});
