import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RouteRegistry } from '../json-api.js';
import { ASSETS, DOCS_CSP, INIT_SCRIPT, renderDocsIndex, renderDocsPage, rendererBundle } from '../openapi/docs-page.js';
import { buildJsonApiDocument } from '../openapi/json-api-document.js';
import { buildResellerDocument } from '../openapi/reseller-document.js';
import type { OpenApiDocument } from '../openapi/shared.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Public documentation: outside every API's authentication and rate counting. */
    publicDocument?: boolean;
  }
}

/** The three APIs: where each one's document and page are served. */
export const DOCUMENTED_APIS = [
  { name: 'reseller-v1', prefix: '/api/v1' },
  { name: 'admin-v1', prefix: '/admin/v1' },
  { name: 'dashboard-v1', prefix: '/dashboard/v1' },
] as const;

export const documentUrl = (prefix: string) => `${prefix}/openapi.json`;

/**
 * Serves the OpenAPI documents and their pages without authentication. Registered on the
 * root instance, outside the API scopes, so none of their hooks run; documents are built on
 * first request, when every plugin has declared its routes.
 */
export function docsRoutes(deps: { registry: RouteRegistry }) {
  const builders: Record<(typeof DOCUMENTED_APIS)[number]['name'], () => OpenApiDocument> = {
    'reseller-v1': buildResellerDocument,
    'admin-v1': () => buildJsonApiDocument(deps.registry, 'admin'),
    'dashboard-v1': () => buildJsonApiDocument(deps.registry, 'dashboard'),
  };
  const cache = new Map<string, { doc: OpenApiDocument; json: string }>();
  const built = (name: keyof typeof builders) => {
    let entry = cache.get(name);
    if (!entry) {
      const doc = builders[name]();
      entry = { doc, json: JSON.stringify(doc) };
      cache.set(name, entry);
    }
    return entry;
  };
  const entries = () => DOCUMENTED_APIS.map((a) => ({ name: a.name, title: built(a.name).doc.info.title as string, json: documentUrl(a.prefix) }));
  let bundle: { body: Buffer; gzip: Buffer } | null = null;
  const html = (reply: FastifyReply, body: string) =>
    reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).header('x-content-type-options', 'nosniff').header('referrer-policy', 'same-origin').send(body);
  const script = (reply: FastifyReply) => reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff');

  return async function routes(app: FastifyInstance) {
    const config = { publicDocument: true };
    for (const api of DOCUMENTED_APIS) {
      app.get(documentUrl(api.prefix), { config }, async (_req, reply) =>
        reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-cache').send(built(api.name).json));
      app.get(`/docs/${api.name}`, { config }, async (_req, reply) => {
        const all = entries();
        return html(reply, renderDocsPage(all.find((e) => e.name === api.name)!, all));
      });
    }
    for (const url of ['/docs', '/docs/']) app.get(url, { config }, async (_req, reply) => html(reply, renderDocsIndex(entries())));
    app.get(ASSETS.init, { config }, async (_req, reply) => script(reply).send(INIT_SCRIPT));
    // 3.5 MB of script, about a quarter of that compressed: read and gzip once, on first use.
    app.get(ASSETS.bundle, { config }, async (req, reply) => {
      if (!bundle) {
        const body = rendererBundle();
        bundle = { body, gzip: gzipSync(body) };
      }
      script(reply).header('vary', 'accept-encoding');
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(bundle.gzip);
      return reply.send(bundle.body);
    });
  };
}
