/**
 * Writes docs/postman/reseller-api-v1.postman_collection.json (Postman collection v2.1,
 * which Postman, Insomnia and Bruno import) from the reseller API v1's OpenAPI document:
 * one request per operation with its documented example, grouped by tag, and a
 * collection-level pre-request script that signs every request as the spec says.
 * No network: the document is built in process. test/docs/postman.test.ts keeps the
 * committed file equal to what this writes.
 *
 *   npm run docs:postman
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildResellerDocument } from '../src/http/openapi/reseller-document.js';
import type { OpenApiDocument } from '../src/http/openapi/shared.js';

export const COLLECTION_PATH = join(import.meta.dirname, '..', 'docs', 'postman', 'reseller-api-v1.postman_collection.json');

/**
 * Runs in Postman's sandbox (CryptoJS and pm are its globals). The body signed is the one
 * sent: the raw body with {{variables}} resolved; a GET signs the timestamp alone.
 */
export const PRE_REQUEST_SCRIPT = `// Signs every request as the reseller API v1 spec says (Authentication):
// X-Signature = lowercase hex HMAC-SHA256, keyed with the API secret, over
// the exact body as sent followed by X-Timestamp (POST), or X-Timestamp alone (GET).
function signRequest(secret, timestamp, body) {
  return CryptoJS.HmacSHA256((body || '') + timestamp, secret).toString(CryptoJS.enc.Hex);
}
var timestamp = String(Date.now());
var raw = pm.request.body && pm.request.body.mode === 'raw' ? pm.variables.replaceIn(pm.request.body.raw || '') : '';
var body = pm.request.method === 'GET' ? '' : raw;
pm.request.headers.upsert({ key: 'X-Api-Key', value: pm.variables.get('apiKey') });
pm.request.headers.upsert({ key: 'X-Timestamp', value: timestamp });
pm.request.headers.upsert({ key: 'X-Signature', value: signRequest(pm.variables.get('apiSecret'), timestamp, body) });
`;

type Doc = Record<string, any>;

function request(path: string, method: string, op: Doc): Doc {
  const query = (op.parameters ?? []).filter((p: Doc) => p.in === 'query').map((p: Doc) => ({
    key: p.name,
    value: p.example === undefined ? '' : String(p.example),
    ...(p.required ? {} : { disabled: true }),
    ...(p.description ? { description: p.description } : {}),
  }));
  const enabled = query.filter((q: Doc) => !q.disabled);
  const segments = path.split('/').filter(Boolean);
  const example = op.requestBody?.content?.['application/json']?.example;
  return {
    name: op.summary,
    request: {
      method: method.toUpperCase(),
      description: [op.description, op.deprecated ? 'Deprecated.' : ''].filter(Boolean).join('\n\n'),
      header: example === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }],
      url: {
        raw: `{{baseUrl}}${path}${enabled.length ? `?${enabled.map((q: Doc) => `${q.key}=${q.value}`).join('&')}` : ''}`,
        host: ['{{baseUrl}}'],
        path: segments,
        ...(query.length ? { query } : {}),
      },
      ...(example === undefined ? {} : { body: { mode: 'raw', raw: JSON.stringify(example, null, 2), options: { raw: { language: 'json' } } } }),
    },
    response: [],
  };
}

export function buildPostmanCollection(doc: OpenApiDocument): Doc {
  const folders = (doc.tags as Doc[]).map((tag) => ({ name: tag.name, description: tag.description, item: [] as Doc[] }));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries<Doc>(item)) {
      const folder = folders.find((f) => f.name === op.tags?.[0]);
      if (!folder) throw new Error(`${method} ${path}: tag ${op.tags?.[0]} is not declared`);
      folder.item.push(request(path, method, op));
    }
  }
  return {
    info: {
      name: `${doc.info.title} v1`,
      description: `${doc.info.description}\n\nSet the collection variables baseUrl, apiKey and apiSecret; the collection's pre-request script signs every request. Generated from /api/v1/openapi.json by scripts/postman-collection.ts.`,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    variable: [
      { key: 'baseUrl', value: 'http://127.0.0.1:8080/api/v1', description: 'the service, with the /api/v1 prefix' },
      { key: 'apiKey', value: '', description: 'your API key (dashboard: Settings > API Keys)' },
      { key: 'apiSecret', value: '', description: 'your API secret (shown once, when the key is created); keep it in a vault or the current value only' },
    ],
    event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: PRE_REQUEST_SCRIPT.trimEnd().split('\n') } }],
    item: folders.filter((f) => f.item.length),
  };
}

export const collectionText = () => `${JSON.stringify(buildPostmanCollection(buildResellerDocument()), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(COLLECTION_PATH, collectionText());
  console.log(`wrote ${COLLECTION_PATH}`);
}
