import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The API reference pages: Scalar's API reference (MIT), served from this service's own
 * node_modules so the pages work offline. Everything that would reach the network is off:
 * web fonts, telemetry, the AI agent, the hosted proxy; the page's CSP allows this origin only.
 */

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Scalar's standalone bundle (JS with its CSS inside), read once on first use. */
export function rendererBundle(): Buffer {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return readFileSync(join(dirname(entry), 'browser', 'standalone.js'));
}

/** No inline script (the CSP forbids it): the configuration travels in a data attribute. */
export const INIT_SCRIPT = `(function () {
  var el = document.getElementById('reference');
  window.Scalar.createApiReference(el, JSON.parse(el.getAttribute('data-config')));
})();
`;

/** Scripts from this origin only; Scalar sets styles inline and loads nothing else. */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export interface DocsEntry {
  /** Page path segment, e.g. reseller-v1. */
  name: string;
  title: string;
  /** The raw OpenAPI JSON's URL. */
  json: string;
}

export const ASSETS = { bundle: '/docs/assets/api-reference.js', init: '/docs/assets/init.js' };

/** One API's reference; the other documents are a click away in Scalar's document switcher. */
export function renderDocsPage(current: DocsEntry, all: DocsEntry[]): string {
  const config = {
    sources: [current, ...all.filter((e) => e.name !== current.name)].map((e, i) => ({ title: e.title, slug: e.name, url: e.json, default: i === 0 })),
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    defaultOpenFirstTag: true,
    hideClientButton: false,
    persistAuth: false,
    metaData: { title: current.title },
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(current.title)} · API reference</title>
</head>
<body>
<noscript><p>This reference needs JavaScript. The OpenAPI document itself: <a href="${esc(current.json)}">${esc(current.json)}</a>.</p></noscript>
<div id="reference" data-config="${esc(JSON.stringify(config))}"></div>
<script src="${ASSETS.bundle}"></script>
<script src="${ASSETS.init}"></script>
</body>
</html>
`;
}

/** /docs/: the three references and their raw documents. */
export function renderDocsIndex(entries: DocsEntry[]): string {
  const items = entries
    .map((e) => `<li><a href="/docs/${esc(e.name)}">${esc(e.title)}</a> <small>(<a href="${esc(e.json)}">OpenAPI JSON</a>)</small></li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<style>
:root{color-scheme:light dark}body{font:16px/1.6 system-ui,sans-serif;max-width:42em;margin:3em auto;padding:0 1em}
li{margin:.5em 0}
</style>
</head>
<body>
<h1>API reference</h1>
<ul>
${items}
</ul>
<p>The reseller API v1 contract: docs/spec/reseller-topup-api-v1.md in the repository.</p>
</body>
</html>
`;
}
