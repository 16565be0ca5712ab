import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HotCounter, HotHistogram } from '../../src/adapters/prometheus-hot.js';

/** The request path's cheap metrics must expose exactly what prom-client's own would. */
describe('prometheus-hot', () => {
  it('a histogram exposes the same text as prom-client for the same observations', async () => {
    const buckets = [0.001, 0.01, 0.1, 1];
    const values = [0, 0.0005, 0.001, 0.002, 0.01, 0.05, 0.5, 1, 3, 1e9];
    const theirs = new Registry();
    const h = new Histogram({ name: 'x_seconds', help: 'h', labelNames: ['method', 'route', 'status'], buckets, registers: [theirs] });
    const ours = new Registry();
    const hot = new HotHistogram('x_seconds', 'h', ['method', 'route', 'status'], buckets);
    ours.registerMetric(hot as never);
    const a = hot.child(['POST', '/api/v1/order', '200']);
    const b = hot.child(['GET', '/api/v1/order-status', '404']);
    for (const v of values) {
      h.observe({ method: 'POST', route: '/api/v1/order', status: '200' }, v);
      a.observe(v);
    }
    h.observe({ method: 'GET', route: '/api/v1/order-status', status: '404' }, 0.02);
    b.observe(0.02);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('a counter exposes the same text as prom-client', async () => {
    const theirs = new Registry();
    const c = new Counter({ name: 'y_total', help: 'c', labelNames: ['result'], registers: [theirs] });
    const ours = new Registry();
    const hot = new HotCounter('y_total', 'c', 'result');
    ours.registerMetric(hot as never);
    for (const r of ['accepted', 'accepted', 'DUPLICATE_REF_ID']) {
      c.inc({ result: r });
      hot.inc(r);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
