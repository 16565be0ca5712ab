import Ajv2020Module, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ApiResponse } from './client.js';

/**
 * Checks HTTP responses against the service's own OpenAPI documents. The test clients run
 * every response they receive through checkServedResponse, so every test is a drift check:
 * an undocumented status, error code, field or missing header fails the test that saw it.
 */
type Doc = Record<string, any>;
type Schema = Record<string, any>;

// CommonJS packages: their default export sits one level down under ESM.
const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as typeof Ajv2020Module.default;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof addFormatsModule.default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** Follows a local JSON pointer ("#/components/schemas/PageMeta"); undefined when it does not resolve. */
export function resolvePointer(doc: Doc, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((o, k) => (o && typeof o === 'object' ? o[k] : undefined), doc);
}

/** Every $ref in the document, with where it sits. */
export function refsOf(node: unknown, at = '#'): { at: string; ref: string }[] {
  if (!node || typeof node !== 'object') return [];
  const out: { at: string; ref: string }[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') out.push({ at, ref: v });
    else out.push(...refsOf(v, `${at}/${k}`));
  }
  return out;
}

/** The schema with local $refs inlined (the documents' components are not recursive). */
export function inlineRefs(doc: Doc, schema: unknown, depth = 0): any {
  if (depth > 20) throw new Error('$ref nesting too deep');
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(doc, s, depth));
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const target = resolvePointer(doc, s.$ref);
    if (target === undefined) throw new Error(`unresolved $ref ${s.$ref}`);
    return inlineRefs(doc, target, depth + 1);
  }
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, inlineRefs(doc, v, depth)]));
}

/**
 * Responses are documented open (clients must ignore unknown keys), but the service must not
 * send fields its document does not name: checks close every object that lists properties.
 */
function closed(schema: any, isAllOfPart = false): any {
  if (Array.isArray(schema)) return schema.map((s) => closed(s, isAllOfPart));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === 'const' || k === 'enum' || k === 'default' ? v : closed(v, k === 'allOf')]),
  );
  // Parts of an allOf (TypeBox Intersect) see only their own properties: close the whole instead.
  if (out.allOf && out.unevaluatedProperties === undefined) out.unevaluatedProperties = false;
  else if (!isAllOfPart && out.properties && out.additionalProperties === undefined && out.patternProperties === undefined) out.additionalProperties = false;
  return out;
}

const compiled = { open: new WeakMap<object, ValidateFunction>(), closed: new WeakMap<object, ValidateFunction>() };
export function compileSchema(doc: Doc, schema: Schema, strictFields = false): ValidateFunction {
  const cache = strictFields ? compiled.closed : compiled.open;
  const known = cache.get(schema);
  if (known) return known;
  const inlined = inlineRefs(doc, schema);
  const v = ajv.compile(strictFields ? closed(inlined) : inlined);
  cache.set(schema, v);
  return v;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every operation of a document: method, path template, and the operation object. */
export function operationsOf(doc: Doc): { method: string; path: string; op: Schema }[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Schema).filter(([m]) => METHODS.includes(m)).map(([method, op]) => ({ method, path, op: op as Schema })),
  );
}

/**
 * The operation serving a request path (server prefix included, query ignored), literal
 * segments winning over templated ones, as in the router.
 */
export function findOperation(doc: Doc, method: string, requestPath: string): { path: string; op: Schema } | null {
  const base = (doc.servers?.[0]?.url as string | undefined) ?? '';
  const path = requestPath.split('?')[0]!;
  if (!path.startsWith(base)) return null;
  const rel = path.slice(base.length) || '/';
  const candidates = operationsOf(doc)
    .filter((o) => o.method === method.toLowerCase())
    .map((o) => ({ ...o, params: (o.path.match(/\{/g) ?? []).length }))
    .sort((a, b) => a.params - b.params);
  for (const c of candidates) {
    const re = new RegExp(`^${c.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
    if (re.test(rel)) return { path: c.path, op: c.op };
  }
  return null;
}

function fail(what: string, method: string, path: string, r: ApiResponse, detail: string): never {
  throw new Error(`OpenAPI drift: ${method} ${path} → ${r.status}: ${detail}\n${what}\nbody: ${r.text.slice(0, 500)}`);
}

/**
 * Asserts that a response is what the document promises for that operation: a documented
 * status, a body valid against its schema (for errors: a code documented for this operation
 * at this status) and the documented headers. Returns false when the path is undocumented.
 */
export function assertMatchesOpenApi(doc: Doc, method: string, path: string, r: ApiResponse): boolean {
  const found = findOperation(doc, method, path);
  if (!found) return false;
  const responses = found.op.responses as Record<string, Schema>;
  const declared = responses[String(r.status)] ?? responses[`${String(r.status)[0]}XX`] ?? responses.default;
  if (!declared) fail(`documented statuses: ${Object.keys(responses).join(', ')}`, method, path, r, 'status not documented');
  const response = inlineRefs(doc, declared);
  const schema = response.content?.['application/json']?.schema as Schema | undefined;
  if (schema) {
    if (!/^application\/json/.test(r.headers['content-type'] ?? '')) fail('', method, path, r, `content-type ${r.headers['content-type']} is not application/json`);
    const validate = compileSchema(doc, declared.content['application/json'].schema, true);
    if (!validate(r.body)) {
      const codes = schema.properties?.error?.enum as string[] | undefined;
      const detail = codes && r.body && typeof r.body.error === 'string' && !codes.includes(r.body.error)
        ? `error ${r.body.error} is not documented for this operation at ${r.status} (documented: ${codes.join(', ')})`
        : ajv.errorsText(validate.errors, { dataVar: 'body' });
      fail(`schema: ${JSON.stringify(schema).slice(0, 300)}`, method, path, r, detail);
    }
  }
  for (const [name, h] of Object.entries((response.headers ?? {}) as Record<string, Schema>)) {
    const value = r.headers[name.toLowerCase()];
    if (value === undefined) {
      if (h.required) fail('', method, path, r, `documented header ${name} is missing`);
      continue;
    }
    if (h.schema && !compileSchema(doc, declared.headers[name].schema)(value)) fail(JSON.stringify(h.schema), method, path, r, `header ${name}: ${value} does not match`);
  }
  return true;
}

/**
 * Headers every HTTP answer has for HTTP's own sake (framing and the representation the
 * `content` map already names), not part of an API's contract: never declared (OpenAPI
 * ignores a declared Content-Type), never reported.
 */
const HTTP_FRAMING = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Headers a response carried that the document does not declare on that response (framing aside). */
export function undeclaredHeaders(doc: Doc, method: string, path: string, r: Pick<ApiResponse, 'status' | 'headers'>): string[] {
  const found = findOperation(doc, method, path);
  if (!found) return [];
  const responses = found.op.responses as Record<string, Schema>;
  const declared = responses[String(r.status)] ?? responses[`${String(r.status)[0]}XX`] ?? responses.default;
  if (!declared) return [];
  const names = new Set(Object.keys(inlineRefs(doc, declared).headers ?? {}).map((n) => n.toLowerCase()));
  return Object.keys(r.headers).map((n) => n.toLowerCase()).filter((n) => !HTTP_FRAMING.has(n) && !names.has(n));
}

/**
 * One object per distinct document text: every test app serves the same documents on a new
 * port, and validators are compiled once per document object, not once per app.
 */
const byText = new Map<string, Doc>();
function interned(text: string): Doc {
  let doc = byText.get(text);
  if (!doc) byText.set(text, (doc = JSON.parse(text) as Doc));
  return doc;
}

/** Served documents by URL (a pending load is shared by concurrent requests). */
const documents = new Map<string, Promise<Doc | null>>();

/** The document served at `${apiBaseUrl}/openapi.json`, or null when nothing documents that base. */
export function servedDocument(apiBaseUrl: string): Promise<Doc | null> {
  const url = `${apiBaseUrl.replace(/\/$/, '')}/openapi.json`;
  let pending = documents.get(url);
  if (!pending) {
    pending = fetch(url).then(
      async (res) => (res.ok ? interned(await res.text()) : null),
      () => {
        documents.delete(url); // the service may not be up yet (or any more): try again next time
        return null;
      },
    );
    documents.set(url, pending);
  }
  return pending;
}

/** What the test clients call on every response they receive. */
export async function checkServedResponse(apiBaseUrl: string, method: string, pathAndQuery: string, r: ApiResponse): Promise<ApiResponse> {
  if (process.env.OPENAPI_DRIFT_CHECK === '0') return r;
  const doc = await servedDocument(apiBaseUrl);
  const path = `${new URL(apiBaseUrl).pathname.replace(/\/$/, '')}${pathAndQuery}`;
  if (doc) {
    assertMatchesOpenApi(doc, method, path, r);
    // The other way round: every header sent is declared on the response that carried it.
    const extra = undeclaredHeaders(doc, method, path, r);
    if (extra.length) throw new Error(`OpenAPI drift: ${method} ${path} → ${r.status}: header(s) ${extra.join(', ')} sent but not declared on this response`);
  }
  return r;
}

/**
 * Asserts that a callback the service sent is the documented webhook: every header
 * parameter present and well-formed, the body valid against its schema with no field the
 * document does not name.
 */
export function assertMatchesWebhook(doc: Doc, name: string, headers: Record<string, string | string[] | undefined>, rawBody: string): void {
  const op = doc.webhooks?.[name]?.post as Schema | undefined;
  if (!op) throw new Error(`OpenAPI drift: no webhook ${name}`);
  for (const p of (op.parameters ?? []) as Schema[]) {
    if (p.in !== 'header') continue;
    const value = headers[String(p.name).toLowerCase()];
    if (value === undefined) {
      if (p.required) throw new Error(`OpenAPI drift: webhook ${name}: header ${p.name} is missing`);
      continue;
    }
    if (!compileSchema(doc, p.schema)(value)) throw new Error(`OpenAPI drift: webhook ${name}: header ${p.name}: ${String(value)} does not match ${JSON.stringify(p.schema)}`);
  }
  const validate = compileSchema(doc, op.requestBody.content['application/json'].schema, true);
  if (!validate(JSON.parse(rawBody))) throw new Error(`OpenAPI drift: webhook ${name}: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}\nbody: ${rawBody.slice(0, 500)}`);
}
