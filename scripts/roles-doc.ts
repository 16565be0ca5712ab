/**
 * The roles and permissions tables of README.md and docs/operator-api.md, rendered from
 * src/domain/operator-roles.ts (the table the server checks). test/docs/roles-doc.test.ts
 * keeps both files' blocks equal to what this renders; run it to rewrite them:
 *
 *   npx tsx scripts/roles-doc.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPERATOR_ROLES, OPERATOR_ROUTES, PERMISSIONS, PERMISSION_NAMES, permissionsOf, ROLE_DESCRIPTIONS } from '../src/domain/operator-roles.js';

const ROOT = join(import.meta.dirname, '..');
export const START = '<!-- roles:start (generated from src/domain/operator-roles.ts by scripts/roles-doc.ts) -->';
export const END = '<!-- roles:end -->';

const code = (s: string) => `\`${s}\``;

/** Roles, what each is for and the permissions it holds. */
export function rolesTable(): string {
  return [
    '| Role | For | Permissions |',
    '|---|---|---|',
    ...OPERATOR_ROLES.map((r) => `| ${code(r)} | ${ROLE_DESCRIPTIONS[r]} | ${permissionsOf([r]).map(code).join(', ')} |`),
  ].join('\n');
}

/** Each permission, the roles holding it and the routes needing it. */
export function permissionsTable(): string {
  return [
    '| Permission | What | Roles | Routes |',
    '|---|---|---|---|',
    ...PERMISSION_NAMES.map((p) => {
      const routes = Object.entries(OPERATOR_ROUTES).filter(([, q]) => q === p).map(([r]) => code(r));
      return `| ${code(p)} | ${PERMISSIONS[p].description} | ${PERMISSIONS[p].roles.map(code).join(', ')} | ${routes.join('<br>')} |`;
    }),
  ].join('\n');
}

export const DOC_BLOCKS = {
  'README.md': () => rolesTable(),
  'docs/operator-api.md': () => `${rolesTable()}\n\n${permissionsTable()}`,
} as const;

/** The file's text with its generated block replaced by `body`. */
export function withBlock(text: string, body: string): string {
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error('the roles block markers are missing');
  return `${text.slice(0, a + START.length)}\n${body}\n${text.slice(b)}`;
}

export const docPath = (file: string) => join(ROOT, file);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, render] of Object.entries(DOC_BLOCKS)) writeFileSync(docPath(file), withBlock(readFileSync(docPath(file), 'utf8'), render()));
}
