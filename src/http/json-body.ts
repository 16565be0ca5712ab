import { isUtf8 } from 'node:buffer';
import { assertTextDeep } from '../domain/text.js';
import { AppError } from '../errors.js';

/**
 * How deep arrays and objects may nest in a request body. Far past any declared shape (a
 * category form with its options, the deepest, is a handful of levels), and shallow enough that every recursive walk
 * of the parsed value (the text check, schema validation, serialization) stays well within
 * the stack.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether `buf` opens more than `limit` arrays and objects inside one another, counting the
 * brackets outside strings in one pass over the bytes: no recursion, whatever the input. A
 * byte scan is exact on UTF-8, where every byte of a multi-byte character is 0x80 or above.
 */
export function nestsDeeperThan(buf: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * Parses a buffered JSON body, the one place every JSON route's body is read: malformed
 * JSON is the client's mistake, never a 500. The bytes must be UTF-8 (a decoder would turn
 * each bad sequence into U+FFFD, so two different bodies would read the same), the nesting
 * bounded before anything walks it, and every string text the service may hold
 * (domain/text.ts).
 */
export function parseJsonBody(raw: unknown): unknown {
  const buf = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
  if (buf.length === 0) throw new AppError('VALIDATION_ERROR', 'request body is empty; send a JSON object');
  if (!isUtf8(buf)) throw new AppError('VALIDATION_ERROR', 'request body must be valid UTF-8: it holds a byte sequence that is not UTF-8; encode every string as UTF-8');
  if (nestsDeeperThan(buf, MAX_JSON_DEPTH)) {
    throw new AppError('VALIDATION_ERROR', `request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no request of this API is deeper than a few`);
  }
  let body: unknown;
  try {
    body = JSON.parse(buf.toString('utf8'));
  } catch (e) {
    throw new AppError('VALIDATION_ERROR', `request body is not valid JSON: ${(e as Error).message}`);
  }
  assertTextDeep(body);
  return body;
}
