import type { Schema } from './shared.js';

/**
 * Example values made from a schema, so every request and response of the three documents
 * shows one (renderers turn them into request samples) without a hand-written copy that
 * could drift. test/docs checks each against its schema. Hand-written examples (a
 * schema's own `examples`, or an operation's) win over these.
 */

/** Realistic values by property name; each must fit the schema it lands in (the test checks). */
const BY_NAME: Record<string, unknown> = {
  ref_id: 'INV-2026-000123',
  order_id: '0b6f3c2e-8d4a-4f1b-9a7e-2c5d8e1f4a60',
  order_code: 'ORD-0B6F3C2E8D4A',
  product_code: 'ML-86',
  product_name: '86 Diamonds',
  category: 'Mobile Legends',
  category_slug: 'mobile-legends',
  category_name: 'Mobile Legends',
  slug: 'mobile-legends',
  target: '123456789',
  target_id: '123456789',
  zone: '2001',
  zone_id: '2001',
  serial_number: 'SRL-7KQ2M9XW4B',
  email: 'ops@example-reseller.com',
  name: 'Example Store',
  label: 'User ID',
  ip: '203.0.113.10',
  callback_url: 'https://example-reseller.com/topup/callback',
  url: 'https://example-reseller.com/topup/callback',
  currency: 'IDR',
  message: 'Order received and being processed',
  note: 'bank transfer 2026-01-15',
  password: 'correct horse battery staple',
  new_password: 'a new long passphrase',
  current_password: 'correct horse battery staple',
  token: 'sess_3q2+7w8...example',
  csrf_token: 'csrf_9f8e7d...example',
  api_key: 'tk_live_5f2b9c0e7a1d',
  api_secret: 'ts_shown_once_store_it_now',
  masked_key: 'tk_live_5f2b…7a1d',
  sku: 'MLBB-86',
  reason: 'duplicate payment',
  request_id: 'req_01HZX3K9Q7',
  ip_whitelist: '203.0.113.10',
  start_date: '2026-01-01',
  end_date: '2026-01-31',
  status: 'processing,success',
  type: 'order_debit',
  failure_code: null,
  failure_reason: null,
};

const FORMATS: Record<string, string> = {
  'date-time': '2026-01-15T08:30:00.000Z',
  date: '2026-01-15',
  uuid: '0b6f3c2e-8d4a-4f1b-9a7e-2c5d8e1f4a60',
  email: 'ops@example-reseller.com',
  uri: 'https://example-reseller.com/topup/callback',
  ipv4: '203.0.113.10',
};

/** Values for the patterns the schemas use; an unknown pattern makes a value the test rejects. */
const PATTERNS: Record<string, string> = {
  '^ORD-[0-9A-F]{12}$': 'ORD-0B6F3C2E8D4A',
  '^SRL-': 'SRL-7KQ2M9XW4B',
  '^\\d+$': '60',
  '^\\d+(\\.\\d+)?$': '15000',
  '^[0-9a-f]{64}$': '5d41402abc4b2a76b9719d911017c592ae2d2a3f8d1e4e5c8e1c7b3a1d0f9e21',
  '^[1-4]$': '1',
  '^\\d{4}-\\d{2}-\\d{2}$': '2026-01-15',
};

/** Nullable times that are null on a live record (not yet revoked, used, …). */
const UNSET_TIMES = /^(revoked|used|next_attempt|flagged|finished|deleted)_at$/;

type Resolve = (ref: string) => Schema | undefined;

export function exampleOf(schema: Schema | undefined, resolve: Resolve, name?: string, depth = 0): unknown {
  if (!schema || depth > 12) return null;
  const s = schema;
  if (typeof s.$ref === 'string') {
    const target = resolve(s.$ref);
    return target?.example !== undefined ? target.example : exampleOf(target, resolve, name, depth + 1);
  }
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined) return s.default;
  for (const k of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[k])) {
      const options = s[k] as Schema[];
      // A nullable value shows its non-null form unless its name says null is the usual value.
      if (name && (BY_NAME[name] === null || UNSET_TIMES.test(name)) && options.some((o) => o.type === 'null')) return null;
      return exampleOf(options.find((o) => o.type !== 'null') ?? options[0], resolve, name, depth + 1);
    }
  }
  if (Array.isArray(s.type)) {
    const types = s.type as string[];
    if (types.includes('null') && name && (BY_NAME[name] === null || UNSET_TIMES.test(name))) return null;
    return exampleOf({ ...s, type: types.find((t) => t !== 'null') ?? 'null' }, resolve, name, depth + 1);
  }
  if (Array.isArray(s.allOf)) {
    return Object.assign({}, ...(s.allOf as Schema[]).map((p) => exampleOf(p, resolve, name, depth + 1)));
  }
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) out[key] = exampleOf(prop, resolve, key, depth + 1);
      if (!s.properties && s.additionalProperties && typeof s.additionalProperties === 'object') {
        out.user_id = exampleOf(s.additionalProperties as Schema, resolve, 'target', depth + 1);
      } else if (!s.properties && s.patternProperties) {
        const [, value] = Object.entries(s.patternProperties as Record<string, Schema>)[0]!;
        out.user_id = exampleOf(value, resolve, 'target', depth + 1);
      }
      return out;
    }
    case 'array': {
      const item = exampleOf(s.items as Schema, resolve, name && name.endsWith('s') ? name.slice(0, -1) : name, depth + 1);
      return Array.from({ length: Math.max(1, typeof s.minItems === 'number' ? s.minItems : 1) }, () => item);
    }
    case 'integer':
    case 'number':
      return numberFor(s, name);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return stringFor(s, name);
    default:
      return null;
  }
}

function numberFor(s: Schema, name?: string): number {
  const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  const money = /price|amount|balance|cost|total_value|threshold/.test(name ?? '');
  let n = money ? (name === 'amount' && s.description && /negative/.test(String(s.description)) ? -15000 : 15000) : name === 'page' ? 1 : name === 'limit' ? 50 : 1;
  if (min !== undefined && n < min) n = min;
  if (max !== undefined && n > max) n = max;
  return n;
}

function stringFor(s: Schema, name?: string): string {
  let v: string | undefined;
  if (typeof s.format === 'string') v = FORMATS[s.format];
  if (v === undefined && typeof s.pattern === 'string') v = PATTERNS[s.pattern];
  if (v === undefined && name && typeof BY_NAME[name] === 'string') v = BY_NAME[name] as string;
  if (v === undefined && name && /_at$/.test(name)) v = FORMATS['date-time'];
  if (v === undefined) v = name && /(^|_)id$/.test(name) ? 'c3f1a9e2' : 'example';
  if (typeof s.maxLength === 'number' && v.length > s.maxLength) v = v.slice(0, s.maxLength);
  if (typeof s.minLength === 'number' && v.length < s.minLength) v = v.padEnd(s.minLength, 'x');
  return v;
}
