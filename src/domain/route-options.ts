/**
 * Per-route settings a supplier adapter may need (stored with the route as JSON):
 * how the order's target and zone become the supplier's customer number, and whether
 * the supplier should only simulate the transaction (its testing mode).
 */
export interface RouteOptions {
  /** Template with {target} and {zone}; default "{target}" (zone ignored). */
  customerNo?: string;
  testing?: boolean;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** A reason the options are unusable, or null. */
export function routeOptionsProblem(o: RouteOptions): string | null {
  if (o.customerNo !== undefined) {
    if (o.customerNo.length < 8 || o.customerNo.length > 64) return 'customer_no format: 8 to 64 characters, e.g. "{target}{zone}" or "{target}|{zone}"';
    if (!o.customerNo.includes('{target}')) return 'customer_no format must contain {target}';
    for (const [, name] of o.customerNo.matchAll(PLACEHOLDER)) if (name !== 'target' && name !== 'zone') return `customer_no format: unknown placeholder {${name}} (use {target} and {zone})`;
  }
  return null;
}

/** The supplier's customer number for an order: the template filled in (a missing zone is empty). */
export function customerNumber(o: RouteOptions, target: string, zone: string | null): string {
  return (o.customerNo ?? '{target}').replace(PLACEHOLDER, (_m, name: string) => (name === 'target' ? target : (zone ?? '')));
}

export function parseRouteOptions(json: string | null | undefined): RouteOptions {
  if (!json) return {};
  try {
    const o = JSON.parse(json) as RouteOptions;
    return { ...(typeof o.customerNo === 'string' ? { customerNo: o.customerNo } : {}), ...(typeof o.testing === 'boolean' ? { testing: o.testing } : {}) };
  } catch {
    return {};
  }
}
