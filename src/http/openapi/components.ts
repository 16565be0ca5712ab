import { exampleOf } from './examples.js';
import type { OpenApiDocument, Schema } from './shared.js';

/**
 * Finishing passes over a built document: shared shapes become named components (generated
 * clients get their type names from these), and every request, response and parameter
 * without an example gets one made from its schema.
 */

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * TypeBox writes a union of literals as anyOf of consts and Nullable(T) as anyOf [T, null];
 * the same constraints read better (and renderers and client generators handle them
 * better) as `enum` and as `type: [T, "null"]`. Only primitive members are rewritten.
 */
export function simplifyUnions(n: unknown): unknown {
  if (Array.isArray(n)) return n.map(simplifyUnions);
  if (!n || typeof n !== 'object') return n;
  const out = Object.fromEntries(Object.entries(n).map(([k, v]) => [k, k === 'const' || k === 'enum' || k === 'example' || k === 'examples' || k === 'default' ? v : simplifyUnions(v)])) as Schema;
  const anyOf = out.anyOf as Schema[] | undefined;
  if (!Array.isArray(anyOf) || anyOf.length < 2) return out;
  const { anyOf: _, ...rest } = out;
  const consts = anyOf.every((m) => m.const !== undefined && Object.keys(m).every((k) => k === 'const' || k === 'type'));
  const types = new Set(anyOf.map((m) => m.type));
  if (consts && types.size === 1 && PRIMITIVES.has(String(anyOf[0]!.type))) return { type: anyOf[0]!.type, enum: anyOf.map((m) => m.const), ...rest };
  const nulls = anyOf.filter((m) => m.type === 'null' && Object.keys(m).length === 1);
  const others = anyOf.filter((m) => !nulls.includes(m));
  if (nulls.length === 1 && others.length === 1 && PRIMITIVES.has(String(others[0]!.type))) {
    const inner = simplifyUnions(others[0]) as Schema;
    // An enum that admits null must list null too.
    const withNull = Array.isArray(inner.enum) ? { enum: [...(inner.enum as unknown[]), null] } : {};
    return { ...inner, ...rest, type: [inner.type, 'null'], ...withNull };
  }
  return out;
}

const isShape = (n: Schema) => n.type === 'object' && !!n.properties && !('success' in (n.properties as Schema));
export const shapeKey = (n: Schema) => Object.keys(n.properties as Schema).join(',');

/**
 * Moves every object shape that occurs at least twice in the document's paths (the same
 * schema, field for field) into components/schemas, replacing each occurrence with a $ref.
 * Names come from the schema's `title`, else from `names` by the shape's field list; a shape missing from both gets a name
 * from where it first occurs (test/docs requires every shared shape of the served documents
 * to be in `names`). With `everyNamed`, a shape named in `names` becomes a component even
 * when it occurs once. Response envelopes stay inline: their error enums are per operation.
 */
export function hoistSharedShapes(doc: OpenApiDocument, names: Record<string, string>, opts: { everyNamed?: boolean } = {}): void {
  doc.paths = simplifyUnions(doc.paths) as OpenApiDocument['paths'];
  if (doc.webhooks) doc.webhooks = simplifyUnions(doc.webhooks) as Schema;
  const counts = new Map<string, number>();
  const count = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (isShape(n as Schema)) {
      const k = JSON.stringify(n);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    for (const v of Object.values(n)) count(v);
  };
  count(doc.paths);
  count(doc.webhooks);

  const schemas: Record<string, Schema> = (doc.components ??= {}).schemas ??= {};
  const byKey = new Map<string, string>();
  const nameFor = (raw: string, node: Schema, at: string): string => {
    const known = byKey.get(raw);
    if (known) return known;
    // A title on the schema names shapes that share a field list but not their rules.
    const base = (typeof node.title === 'string' ? node.title : undefined) ?? names[shapeKey(node)] ?? fallbackName(at);
    let name = base;
    for (let i = 2; schemas[name]; i++) name = `${base}${i}`;
    byKey.set(raw, name);
    return name;
  };
  const replace = (n: unknown, at: string): unknown => {
    if (!n || typeof n !== 'object') return n;
    if (Array.isArray(n)) return n.map((v, i) => replace(v, `${at}/${i}`));
    const raw = isShape(n as Schema) ? JSON.stringify(n) : null;
    const out = Object.fromEntries(Object.entries(n).map(([k, v]) => [k, replace(v, `${at}/${k}`)])) as Schema;
    if (raw && ((counts.get(raw) ?? 0) >= 2 || (opts.everyNamed && names[shapeKey(n as Schema)]))) {
      const name = nameFor(raw, out, at);
      schemas[name] ??= out;
      return { $ref: `#/components/schemas/${name}` };
    }
    return out;
  };
  doc.paths = replace(doc.paths, '') as OpenApiDocument['paths'];
  if (doc.webhooks) doc.webhooks = replace(doc.webhooks, '') as Schema;
}

/** "…/properties/categories/items" → "CategoriesItem": readable, and flagged by the test. */
function fallbackName(at: string): string {
  const parts = at.split('/').filter((p) => p && !['properties', 'content', 'application~1json', 'application/json', 'schema', 'responses', 'requestBody', 'data', 'anyOf'].includes(p) && !/^\d+$/.test(p));
  const tail = parts.slice(-2).join('-');
  return `Unnamed${tail.replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_, __, c: string) => c.toUpperCase())}`;
}

const MESSAGES: Partial<Record<string, string>> = {
  VALIDATION_ERROR: 'target is required (string)',
  INVALID_API_KEY: 'X-Api-Key is missing or unknown',
  INVALID_SIGNATURE: 'X-Signature does not match the request',
  TIMESTAMP_EXPIRED: 'X-Timestamp is more than 5 minutes from server time',
  IP_NOT_WHITELISTED: 'this IP address is not in your whitelist',
  RATE_LIMIT_EXCEEDED: 'too many requests: retry after the Retry-After seconds',
  DUPLICATE_REF_ID: 'an order with this ref_id already exists',
  PRICE_NOT_MATCH: 'price differs from the current price 15000',
  INSUFFICIENT_BALANCE: 'balance too low for this order',
  UNAUTHENTICATED: 'sign in first',
  INTERNAL_ERROR: 'unexpected error; retry later',
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Adds an example to every parameter, request body and response that lacks one. */
export function addExamples(doc: OpenApiDocument): void {
  const resolve = (ref: string) => ref.slice(2).split('/').reduce<any>((o, k) => o?.[k], doc) as Schema | undefined;
  const items = [...Object.values(doc.paths), ...Object.values((doc.webhooks ?? {}) as Record<string, Schema>)];
  for (const item of items) {
    for (const [method, op] of Object.entries(item as Record<string, Schema>)) {
      if (!METHODS.includes(method)) continue;
      for (const p of (op.parameters ?? []) as Schema[]) {
        if (p.example === undefined && p.examples === undefined && p.in !== 'header') p.example = exampleOf(p.schema as Schema, resolve, p.name as string);
      }
      const body = (op.requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined;
      const json = body?.['application/json'];
      if (json && json.example === undefined && json.examples === undefined) json.example = exampleOf(json.schema as Schema, resolve);
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Schema>)) {
        const content = response.content as Record<string, Schema> | undefined;
        for (const [type, media] of Object.entries(content ?? {})) {
          if (media.example !== undefined || media.examples !== undefined) continue;
          if (type === 'text/csv') media.example = 'order_code,ref_id,status\nORD-0B6F3C2E8D4A,INV-2026-000123,success\n';
          else if (status.startsWith('2')) media.example = exampleOf(media.schema as Schema, resolve);
          else media.example = errorExample(media.schema as Schema);
        }
      }
    }
  }
}

function errorExample(schema: Schema): unknown {
  const code = ((schema.properties as Schema | undefined)?.error as Schema | undefined)?.enum as string[] | undefined;
  const error = code?.[0] ?? 'INTERNAL_ERROR';
  return { success: false, error, message: MESSAGES[error] ?? `${error.toLowerCase().replace(/_/g, ' ')}: the message says what to fix`, request_id: 'req_01HZX3K9Q7' };
}
