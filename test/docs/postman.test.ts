import { readFileSync } from 'node:fs';
import CryptoJS from 'crypto-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_PATH, collectionText } from '../../scripts/postman-collection.js';
import { sign } from '../../src/domain/signature.js';
import { startTestApp, uniqueRef, type TestApp } from '../support/app.js';

type Doc = Record<string, any>;

/**
 * Runs the collection's pre-request script the way Postman's sandbox does: CryptoJS (the
 * crypto-js package Postman bundles) and a `pm` with the request, its headers and the
 * collection variables. Returns the headers it set.
 */
function runPreRequest(collection: Doc, req: { method: string; raw?: string }, vars: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  const replaceIn = (s: string) => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => vars[k] ?? '');
  const pm = {
    request: {
      method: req.method,
      body: req.raw === undefined ? undefined : { mode: 'raw', raw: req.raw },
      headers: { upsert: (h: { key: string; value: string }) => void (headers[h.key] = h.value) },
    },
    variables: { get: (k: string) => vars[k], replaceIn },
  };
  const code = (collection.event as Doc[]).find((e) => e.listen === 'prerequest')!.script.exec.join('\n');
  new Function('pm', 'CryptoJS', code)(pm, CryptoJS);
  return headers;
}

describe('Postman collection (docs/postman)', () => {
  let t: TestApp;
  const collection = JSON.parse(readFileSync(COLLECTION_PATH, 'utf8')) as Doc;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  }, 120_000);
  afterAll(async () => t?.close());

  it('is up to date with the reseller OpenAPI document (npm run docs:postman regenerates it)', () => {
    expect(readFileSync(COLLECTION_PATH, 'utf8')).toBe(collectionText());
  });

  it('is a v2.1 collection with every operation, its example, and the three variables', async () => {
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.variable.map((v: Doc) => v.key)).toEqual(['baseUrl', 'apiKey', 'apiSecret']);
    const doc = await (await fetch(`${t.origin}/api/v1/openapi.json`)).json();
    const requests = (collection.item as Doc[]).flatMap((f) => f.item as Doc[]);
    const operations = Object.entries<Doc>(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(requests.map((r) => `${r.request.method} /${r.request.url.path.join('/')}`).sort()).toEqual(operations.sort());
    const order = requests.find((r) => r.request.method === 'POST' && r.request.url.path.join('/') === 'order')!;
    expect(JSON.parse(order.request.body.raw)).toEqual(doc.paths['/order'].post.requestBody.content['application/json'].example);
  });

  it('signs as the server does: the same signature as src/domain/signature.ts, and the service accepts the requests', async () => {
    const vars = { baseUrl: t.baseUrl, apiKey: t.demo.apiKey, apiSecret: t.demo.apiSecret };
    const ref = uniqueRef('postman');
    // The collection's own request, with a product of the demo catalog (the example names ML-86).
    const products = await t.client.get('/products?limit=1');
    const raw = `{\n  "ref_id": "{{refId}}",\n  "product_code": "${products.body.data.products[0].code}",\n  "target": "123456789"\n}`;
    const post = runPreRequest(collection, { method: 'POST', raw }, { ...vars, refId: ref });
    const sent = raw.replace('{{refId}}', ref);
    expect(post['X-Signature']).toBe(sign(t.demo.apiSecret, post['X-Timestamp']!, sent));
    expect(post['X-Api-Key']).toBe(t.demo.apiKey);
    const r = await fetch(`${t.baseUrl}/order`, { method: 'POST', headers: { 'content-type': 'application/json', ...post }, body: sent });
    expect(r.status, await r.clone().text()).toBe(200);
    expect((await r.json()).data.ref_id).toBe(ref);

    const get = runPreRequest(collection, { method: 'GET' }, vars);
    expect(get['X-Signature']).toBe(sign(t.demo.apiSecret, get['X-Timestamp']!));
    const balance = await fetch(`${t.baseUrl}/balance`, { headers: get });
    expect(balance.status).toBe(200);
  });
});
