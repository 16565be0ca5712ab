import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTED_APIS, documentUrl } from '../../src/http/routes/docs.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { compileSchema, operationsOf } from '../support/openapi.js';

type Doc = Record<string, any>;

/**
 * What makes the served documents good to read and to generate clients from: the Redocly
 * lint (the engine of `redocly lint`, recommended ruleset) without a single warning, an
 * example for every request and response that its schema accepts, named shared shapes.
 */
describe('OpenAPI documents: lint, examples, names', () => {
  let t: TestApp;
  const docs: Record<string, { text: string; doc: Doc }> = {};
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    for (const api of DOCUMENTED_APIS) {
      const text = await (await fetch(`${t.origin}${documentUrl(api.prefix)}`)).text();
      docs[api.name] = { text, doc: JSON.parse(text) };
    }
  }, 120_000);
  afterAll(async () => t?.close());

  it('pass the Redocly recommended ruleset with no error and no warning', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    for (const [name, { text }] of Object.entries(docs)) {
      const problems = await lintFromString({ source: text, absoluteRef: `${name}.json`, config });
      expect(problems.map((p) => `${name} ${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
    }
  }, 120_000);

  it('give every request body, response and query or path parameter an example its schema accepts', () => {
    let checked = 0;
    for (const [name, { doc }] of Object.entries(docs)) {
      const hooks = Object.entries<Doc>(doc.webhooks ?? {}).map(([path, item]) => ({ method: 'post', path: `webhook ${path}`, op: item.post }));
      for (const { method, path, op } of [...operationsOf(doc), ...hooks]) {
        const where = `${name} ${method} ${path}`;
        for (const p of op.parameters ?? []) {
          if (p.in === 'header') continue;
          expect(p.example, `${where} parameter ${p.name}`).not.toBeUndefined();
          const v = compileSchema(doc, p.schema);
          expect(v(p.example), `${where} parameter ${p.name}: ${JSON.stringify(v.errors)}`).toBe(true);
          checked++;
        }
        const media = [
          ...Object.entries<Doc>(op.requestBody?.content ?? {}).map(([type, m]) => ({ at: `request ${type}`, m, strict: false })),
          ...Object.entries<Doc>(op.responses ?? {}).flatMap(([status, r]) =>
            Object.entries<Doc>(r.content ?? {}).map(([type, m]) => ({ at: `${status} ${type}`, m, strict: true }))),
        ];
        for (const { at, m, strict } of media) {
          expect(m.example, `${where} ${at}: example`).not.toBeUndefined();
          // Responses are checked closed: an example must not show a field the schema lacks.
          const v = compileSchema(doc, m.schema, strict);
          expect(v(m.example), `${where} ${at}: ${JSON.stringify(v.errors)}`).toBe(true);
          checked++;
        }
      }
      for (const [schemaName, s] of Object.entries<Doc>(doc.components.schemas)) {
        for (const example of s.examples ?? []) {
          const v = compileSchema(doc, { $ref: `#/components/schemas/${schemaName}` }, true);
          expect(v(example), `${name} ${schemaName}: ${JSON.stringify(v.errors)}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('name every shape used twice (components/schemas), and the reseller API every shape it has', () => {
    for (const [name, { doc }] of Object.entries(docs)) {
      const components = Object.keys(doc.components.schemas);
      expect(components.filter((c) => /^Unnamed|\d$/.test(c)), `${name}: shapes missing from the names table`).toEqual([]);
      const seen = new Map<string, number>();
      const walk = (n: unknown): void => {
        if (!n || typeof n !== 'object') return;
        const s = n as Doc;
        if (s.type === 'object' && s.properties && !('success' in s.properties)) seen.set(JSON.stringify(s), (seen.get(JSON.stringify(s)) ?? 0) + 1);
        for (const v of Object.values(s)) walk(v);
      };
      walk(doc.paths);
      walk(doc.webhooks);
      expect([...seen].filter(([, n]) => n > 1).map(([k]) => k.slice(0, 120)), `${name}: inline shapes occurring twice`).toEqual([]);
    }
    const reseller = docs['reseller-v1']!.doc;
    expect(Object.keys(reseller.components.schemas)).toEqual(expect.arrayContaining([
      'Category', 'FormField', 'Product', 'OrderRequest', 'OrderCreated', 'Order', 'ValidationRequest', 'ValidationResult',
      'Balance', 'LedgerEntry', 'CallbackLog', 'CallbackDelivery', 'CallbackPayload', 'PageMeta',
    ]));
    expect(reseller.paths['/order'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OrderRequest' });
    expect(reseller.webhooks.orderCallback.post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CallbackPayload' });
  });

  it('tag every operation, give the callback an operationId, and list each operation\'s error codes', () => {
    for (const [name, { doc }] of Object.entries(docs)) {
      const tags = new Set(doc.tags.map((x: Doc) => x.name));
      for (const x of doc.tags) expect(x.description, `${name} tag ${x.name}`).toBeTruthy();
      for (const { method, path, op } of operationsOf(doc)) {
        expect(op.tags?.length, `${name} ${method} ${path}`).toBe(1);
        expect(tags.has(op.tags[0])).toBe(true);
        for (const [status, r] of Object.entries<Doc>(op.responses)) {
          if (status.startsWith('2')) continue;
          const codes = r.content['application/json'].schema.properties.error.enum as string[];
          expect(r.description, `${name} ${method} ${path} ${status}`).toBe(codes.map((c) => `\`${c}\``).join(', '));
        }
      }
    }
    const hook = docs['reseller-v1']!.doc.webhooks.orderCallback.post;
    expect(hook.operationId).toBe('orderCallback');
    expect(hook.tags).toEqual(['Callbacks']);
  });
});
