// dist/cjs holds the CommonJS build: this marker makes Node read its .js files as CommonJS
// (the package itself is "type": "module").
import { writeFileSync } from 'node:fs';
writeFileSync(new URL('../dist/cjs/package.json', import.meta.url), '{\n  "type": "commonjs"\n}\n');
