import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build:web` writes each app (web/dist/<app>/). */
export const WEB_DIST = join(import.meta.dirname, '..', '..', '..', 'web', 'dist');

/**
 * The pages may load scripts, styles, images and fonts from this origin only, and talk to
 * its APIs only. No inline script anywhere. Inline *styles* are allowed: the component
 * library sets CSS variables through style attributes and one <style> element; a style
 * cannot run code, and the rest of the policy still holds.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt']);

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer | null;
  /** Vite's hashed file names (assets/…) never change content: cache them for good. */
  immutable: boolean;
}

/** Every file of one built app, read once at start (a few hundred kilobytes). */
function loadApp(dir: string): Map<string, Asset> {
  const files = new Map<string, Asset>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const rel = relative(dir, full).split(sep).join('/');
        const ext = extname(name);
        const body = readFileSync(full);
        files.set(rel, {
          type: TYPES[ext] ?? 'application/octet-stream',
          body,
          gzip: COMPRESSIBLE.has(ext) && body.length > 1024 ? gzipSync(body) : null,
          immutable: rel.startsWith('assets/'),
        });
      }
    }
  };
  walk(dir);
  return files;
}

/**
 * Serves a built single-page app under `/<app>/`: its files, and index.html for every other
 * path under it that is no file (the app's router takes it from there). The app's API
 * (`/<app>/v1/…`) is never shadowed: an unknown API path keeps the API's JSON 404.
 */
export function webApp(opts: { app: string; distDir?: string }) {
  const dir = join(opts.distDir ?? WEB_DIST, opts.app);
  const base = `/${opts.app}/`;
  const apiPrefix = `/${opts.app}/v1`;
  return async function routes(app: FastifyInstance) {
    const files = existsSync(join(dir, 'index.html')) ? loadApp(dir) : null;
    const config = { publicDocument: true };

    const send = (req: FastifyRequest, reply: FastifyReply, asset: Asset, cache: string) => {
      reply.headers(SECURITY_HEADERS).header('content-type', asset.type).header('cache-control', cache).header('vary', 'accept-encoding');
      if (asset.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        return reply.header('content-encoding', 'gzip').send(asset.gzip);
      }
      return reply.send(asset.body);
    };

    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const path = decodeURIComponentSafe((req.url.split('?')[0] ?? '').slice(base.length));
      if (`/${opts.app}/${path}`.startsWith(`${apiPrefix}/`) || path === 'v1') return reply.callNotFound();
      if (!files) {
        return reply.code(503).headers(SECURITY_HEADERS).header('content-type', 'text/plain; charset=utf-8')
          .send(`The ${opts.app} web app is not built: run \`npm run build:web\` (npm ci does it).\n`);
      }
      const asset = path === null ? undefined : files.get(path);
      if (asset && path !== 'index.html') return send(req, reply, asset, asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      // A missing hashed asset is a real 404 (an old page asking for a file of an older build).
      if (path?.startsWith('assets/')) return reply.callNotFound();
      return send(req, reply, files.get('index.html')!, 'no-cache');
    };

    app.get(`/${opts.app}`, { config }, async (_req, reply) => reply.redirect(base, 302));
    app.get(base, { config }, handler);
    app.get(`${base}*`, { config }, handler);
  };
}

/** `/` is the reseller dashboard. */
export function rootRedirect(to: string) {
  return async function routes(app: FastifyInstance) {
    app.get('/', { config: { publicDocument: true } }, async (_req, reply) => reply.redirect(to, 302));
  };
}

function decodeURIComponentSafe(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
