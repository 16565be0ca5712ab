import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC_BLOCKS, docPath, withBlock } from '../../scripts/roles-doc.js';

/** README.md and docs/operator-api.md list roles and permissions exactly as the table the server checks. */
describe('roles in the docs', () => {
  for (const [file, render] of Object.entries(DOC_BLOCKS)) {
    it(`${file} holds the roles table as generated (npx tsx scripts/roles-doc.ts rewrites it)`, () => {
      const text = readFileSync(docPath(file), 'utf8');
      expect(text).toBe(withBlock(text, render()));
    });
  }
});
