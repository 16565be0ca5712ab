import type { OpenApiDocument, Schema } from './shared.js';

/**
 * A readable page of an OpenAPI document, rendered on the server as one self-contained HTML
 * file (no scripts, no fonts, no CDN: the service may run offline).
 */

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h2{border-bottom:1px solid #ccc;margin-top:2em}h3{margin-top:1.6em}code,.path{font-family:ui-monospace,monospace}
.m{display:inline-block;min-width:4em;padding:0 .4em;border-radius:3px;color:#fff;font-weight:bold;text-align:center}
.get{background:#2a7}.post{background:#27c}.put,.patch{background:#c80}.delete{background:#c33}.dep{text-decoration:line-through}
table{border-collapse:collapse;width:100%;margin:.4em 0}td,th{border:1px solid #ddd;padding:.25em .5em;vertical-align:top;text-align:left}
th{background:#f4f4f4}nav a{margin-right:1em}`;

type Resolver = (s: Schema) => Schema;

function resolver(doc: OpenApiDocument): Resolver {
  return (s) => {
    const ref = s.$ref as string | undefined;
    if (!ref) return s;
    return ref.slice(2).split('/').reduce<any>((o, k) => o?.[k], doc) ?? {};
  };
}

function typeOf(s: Schema, r: Resolver): string {
  s = r(s);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).map((x) => typeOf(x, r)).join(' | ');
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  if (s.type === 'array') return `${typeOf((s.items as Schema) ?? {}, r)}[]`;
  return String(s.type ?? 'any');
}

function rules(s: Schema, r: Resolver): string {
  s = r(s);
  const parts: string[] = [];
  for (const k of ['minLength', 'maxLength', 'minimum', 'maximum', 'pattern', 'format', 'default'] as const) {
    if (s[k] !== undefined) parts.push(`${k} ${esc(s[k])}`);
  }
  for (const b of (s.anyOf as Schema[] | undefined) ?? []) {
    const inner = rules(b, r);
    if (inner) parts.push(inner);
  }
  return parts.join(', ');
}

/** A nullable field keeps its description on the non-null branch. */
const describe = (s: Schema, r: Resolver): string =>
  String(s.description ?? ((s.anyOf as Schema[] | undefined) ?? []).map((b) => r(b).description).find(Boolean) ?? '');

/** Rows for every field of a schema, nested ones as a.b and a[].b. */
function fieldRows(schema: Schema, r: Resolver, prefix = ''): string[] {
  const s = r(schema);
  const objects = [s, ...((s.anyOf as Schema[] | undefined) ?? []).map(r)].filter((x) => x.properties);
  const rows: string[] = [];
  for (const o of objects) {
    const required = new Set((o.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(o.properties as Record<string, Schema>)) {
      const p = r(prop);
      const full = `${prefix}${name}`;
      rows.push(`<tr><td><code>${esc(full)}</code></td><td>${esc(typeOf(p, r))}</td><td>${required.has(name) ? 'yes' : ''}</td><td>${esc(describe(p, r))} ${rules(p, r)}</td></tr>`);
      const items = p.type === 'array' ? r((p.items as Schema) ?? {}) : null;
      rows.push(...fieldRows(items ?? p, r, `${full}${items ? '[]' : ''}.`));
    }
  }
  return rows;
}

const table = (head: string[], rows: string[]) =>
  rows.length ? `<table><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr>${rows.join('')}</table>` : '<p>None.</p>';

function operationHtml(method: string, path: string, op: Schema, r: Resolver): string {
  const params = ((op.parameters as Schema[] | undefined) ?? []).map((p) => {
    const s = (p.schema as Schema) ?? {};
    return `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${esc(typeOf(s, r))}</td><td>${p.required ? 'yes' : ''}</td><td>${esc(p.description ?? describe(s, r))} ${rules(s, r)}</td></tr>`;
  });
  const bodySchema = (op.requestBody as any)?.content?.['application/json']?.schema as Schema | undefined;
  const responses = (op.responses ?? {}) as Record<string, any>;
  const ok = responses['200'] ?? responses['2XX'];
  const okSchema = ok?.content?.['application/json']?.schema as Schema | undefined;
  const headerRows = (h: Record<string, Schema> | undefined) =>
    Object.entries(h ?? {}).map(([name, v]) => `<tr><td><code>${esc(name)}</code></td><td>${esc(v.description ?? '')} ${v.schema ? rules(v.schema as Schema, r) || esc(typeOf(v.schema as Schema, r)) : ''}</td></tr>`);
  const errorRows = Object.entries(responses)
    .filter(([status]) => /^[45]/.test(status))
    .map(([status, resp]) => {
      const codes = (resp.content?.['application/json']?.schema?.properties?.error?.enum as string[] | undefined) ?? [];
      const extra = Object.keys(resp.headers ?? {}).filter((h) => h === 'Retry-After');
      return `<tr><td>${esc(status)}</td><td>${codes.map((c) => `<code>${esc(c)}</code>`).join(', ')}${extra.length ? ` (header ${extra.join(', ')})` : ''}</td></tr>`;
    });
  const id = `${method}-${path}`.replace(/[^\w-]/g, '_');
  return `<section id="${esc(id)}">
<h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <span class="path${op.deprecated ? ' dep' : ''}">${esc(path)}</span></h3>
<p><strong>${esc(op.summary)}</strong>${op.deprecated ? ' <em>(deprecated)</em>' : ''}</p>
${op.description ? `<p>${esc(op.description)}</p>` : ''}
${Array.isArray(op.security) && op.security.length === 0 ? '<p><em>No authentication.</em></p>' : ''}
<h4>Parameters</h4>${table(['name', 'in', 'type', 'required', 'rules'], params)}
${bodySchema ? `<h4>Request body (application/json)</h4>${table(['field', 'type', 'required', 'rules'], fieldRows(bodySchema, r))}` : ''}
<h4>Response ${responses['200'] ? '200' : '2XX'}</h4>${okSchema ? table(['field', 'type', 'required', 'notes'], fieldRows(okSchema, r)) : `<p>${esc(ok?.description ?? '')}</p>`}
${ok?.headers ? `<h4>Response headers</h4>${table(['header', 'value'], headerRows(ok.headers))}` : ''}
${errorRows.length ? `<h4>Errors</h4>${table(['HTTP', 'error'], errorRows)}` : ''}
</section>`;
}

export function renderDocsPage(doc: OpenApiDocument, jsonUrl: string): string {
  const r = resolver(doc);
  const sections: string[] = [];
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = (op.tags?.[0] as string | undefined) ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, op, r)]);
    }
  }
  for (const [tag, ops] of byTag) sections.push(`<h2>${esc(tag)}</h2>${ops.join('\n')}`);
  const hooks = Object.entries((doc.webhooks ?? {}) as Record<string, Record<string, Schema>>).flatMap(([name, ops]) =>
    Object.entries(ops).map(([method, op]) => operationHtml(method, `(your callback URL) — ${name}`, op, r)),
  );
  if (hooks.length) sections.push(`<h2>Webhooks</h2>${hooks.join('\n')}`);
  const schemes = Object.entries((doc.components?.securitySchemes ?? {}) as Record<string, Schema>).map(
    ([name, s]) => `<tr><td>${esc(name)}</td><td><code>${esc(s.name ?? `${s.scheme ?? ''}`)}</code></td><td>${esc(s.description ?? '')}</td></tr>`,
  );
  const base = (doc.servers?.[0]?.url as string | undefined) ?? '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title><style>${STYLE}</style></head><body>
<nav><a href="/docs">All APIs</a><a href="${esc(jsonUrl)}">OpenAPI document (JSON)</a></nav>
<h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>
<p>${esc(doc.info.description)}</p><p>Base path: <code>${esc(base)}</code> (paths below are relative to it).</p>
<h2>Authentication</h2>${table(['scheme', 'header', 'how'], schemes)}
${sections.join('\n')}
</body></html>`;
}

export function renderDocsIndex(apis: { title: string; page: string; json: string }[]): string {
  const items = apis.map((a) => `<li><a href="${esc(a.page)}">${esc(a.title)}</a> — <a href="${esc(a.json)}">OpenAPI 3.1 JSON</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API documentation</title><style>${STYLE}</style></head><body>
<h1>API documentation</h1><ul>${items}</ul></body></html>`;
}
