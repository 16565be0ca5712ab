import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..', '..');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!.replace(/<[^>]+>/g, '').replace(/[`*_]|\[|\]\([^)]*\)/g, '').toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Every relative link target in a markdown text, outside code. */
export function linksOf(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l));
}

describe('markdown links', () => {
  it('every relative link in the repository\'s .md files resolves in a clone (file, and heading for #anchors)', () => {
    const files = spawnSync('git', ['ls-files', '*.md', '**/*.md'], { cwd: REPO, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    expect(files).toContain('README.md');
    expect(files).toContain('docs/spec/reseller-topup-api-v1.md');
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      const text = readFileSync(join(REPO, file), 'utf8');
      for (const link of linksOf(text)) {
        checked++;
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path ? resolve(dirname(join(REPO, file)), decodeURIComponent(path)) : join(REPO, file);
        if (!target.startsWith(REPO) || !existsSync(target)) {
          broken.push(`${file}: ${link} (no such file)`);
          continue;
        }
        if (anchor && statSync(target).isFile() && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
          broken.push(`${file}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it('no document points at the contract outside the repository', () => {
    for (const file of ['README.md', 'docs/reseller-api.md']) {
      expect(readFileSync(join(REPO, file), 'utf8'), file).not.toMatch(/\.\.\/shared\/spec/);
    }
  });

  it('anchors follow GitHub\'s rules', () => {
    expect([...anchorsOf('# Onboarding: from registration to the first verified callback\n## A `code` b\n## A code b')]).toEqual([
      'onboarding-from-registration-to-the-first-verified-callback', 'a-code-b', 'a-code-b-1',
    ]);
  });
});
