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

/**
 * The customer_no format a game's order form asks of its routes: none without server
 * fields (the default, {target}); with one, the user id followed directly by the zone (the
 * supplier's rule for Mobile Legends, the common case); with several, whose values the
 * zone joins with "|", no format can be guessed (null: the operator must give one).
 */
export function customerNoForForm(form: readonly { role: string }[]): { zone: false } | { zone: true; derived: string | null } {
  const servers = form.filter((f) => f.role === 'server').length;
  if (servers === 0) return { zone: false };
  return { zone: true, derived: servers === 1 ? '{target}{zone}' : null };
}

/** Options as a PATCH gives them: a value sets that option, null removes it (back to its default), absent keeps it. */
export type RouteOptionsPatch = { [K in keyof RouteOptions]?: RouteOptions[K] | null };

export function mergeRouteOptions(base: RouteOptions, patch: RouteOptionsPatch): RouteOptions {
  const out: RouteOptions = { ...base };
  for (const key of ['customerNo', 'testing'] as const) {
    const v = patch[key];
    if (v === null) delete out[key];
    else if (v !== undefined) (out as Record<string, unknown>)[key] = v;
  }
  return out;
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
