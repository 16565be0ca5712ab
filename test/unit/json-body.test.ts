import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonBody } from '../../src/http/json-body.js';
import { parseConfig } from '../../src/config.js';

const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('JSON bodies (http/json-body.ts)', () => {
  it('counts the nesting of arrays and objects outside strings, in one pass', () => {
    expect(nestsDeeperThan(Buffer.from(nest(MAX_JSON_DEPTH)), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(nest(MAX_JSON_DEPTH + 1)), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(Buffer.from('{"a":{"b":[{"c":1}]}}'), 3)).toBe(true);
    expect(nestsDeeperThan(Buffer.from('{"a":{"b":[{"c":1}]}}'), 4)).toBe(false);
    // Brackets in strings (escaped quotes and backslashes included) are text; siblings do not add up.
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ a: '[[[[{{{{', b: 'x\\"[[[[', c: '\\' })), 1)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(JSON.stringify([[1], [2], [3], [4]])), 2)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ s: '😀[' })), 1)).toBe(false);
  });

  it('refuses a deep body before parsing or walking it; a body at the limit is read', () => {
    expect(() => parseJsonBody(Buffer.from(nest(100_000)))).toThrow(`more than ${MAX_JSON_DEPTH} levels deep`);
    expect(parseJsonBody(Buffer.from(`{"a":${nest(MAX_JSON_DEPTH - 1)}}`))).toEqual({ a: JSON.parse(nest(MAX_JSON_DEPTH - 1)) });
  });

  it('refuses bytes that are not UTF-8, overlong forms and encoded surrogates included', () => {
    for (const bad of [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
      const body = Buffer.concat([Buffer.from('{"a":"'), Buffer.from(bad), Buffer.from('"}')]);
      expect(() => parseJsonBody(body), JSON.stringify(bad)).toThrow('request body must be valid UTF-8');
    }
    expect(parseJsonBody(Buffer.from('{"a":"Ærø 😀"}'))).toEqual({ a: 'Ærø 😀' });
  });
});

describe('config: BODY_TIMEOUT_MS', () => {
  it('defaults to 10 s and is bounded', () => {
    expect(parseConfig({ NODE_ENV: 'test' }).bodyTimeoutMs).toBe(10_000);
    expect(parseConfig({ NODE_ENV: 'test', BODY_TIMEOUT_MS: '250' }).bodyTimeoutMs).toBe(250);
    expect(() => parseConfig({ NODE_ENV: 'test', BODY_TIMEOUT_MS: '0' })).toThrow('BODY_TIMEOUT_MS must be an integer from 100 to 600000');
  });
});
