import { mkdirSync, writeFileSync } from 'node:fs';
import { GENERATED_FILE, renderTypes } from './render-types.js';

mkdirSync(new URL('.', GENERATED_FILE), { recursive: true });
writeFileSync(GENERATED_FILE, await renderTypes());
console.log('client: API v1 types written to src/generated/openapi.ts');
