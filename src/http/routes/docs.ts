import type { FastifyInstance } from 'fastify';
import type { RouteRegistry } from '../json-api.js';
import { renderDocsIndex, renderDocsPage } from '../openapi/docs-page.js';
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
  const cache = new Map<string, { doc: OpenApiDocument; json: string; html: string }>();
  const built = (name: keyof typeof builders, prefix: string) => {
    let entry = cache.get(name);
    if (!entry) {
      const doc = builders[name]();
      entry = { doc, json: JSON.stringify(doc), html: renderDocsPage(doc, documentUrl(prefix)) };
      cache.set(name, entry);
    }
    return entry;
  };

  return async function routes(app: FastifyInstance) {
    const config = { publicDocument: true };
    for (const api of DOCUMENTED_APIS) {
      app.get(documentUrl(api.prefix), { config }, async (_req, reply) =>
        reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-cache').send(built(api.name, api.prefix).json));
      app.get(`/docs/${api.name}`, { config }, async (_req, reply) =>
        reply.header('content-type', 'text/html; charset=utf-8').send(built(api.name, api.prefix).html));
    }
    app.get('/docs', { config }, async (_req, reply) =>
      reply.header('content-type', 'text/html; charset=utf-8').send(
        renderDocsIndex(DOCUMENTED_APIS.map((a) => ({ title: built(a.name, a.prefix).doc.info.title, page: `/docs/${a.name}`, json: documentUrl(a.prefix) }))),
      ));
  };
}
