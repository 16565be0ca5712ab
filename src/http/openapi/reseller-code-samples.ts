/**
 * `x-codeSamples` of every API v1 operation: curl + openssl, the TypeScript SDK, PHP (curl)
 * and Python (standard library). Each signs the exact bytes it sends (the body is
 * serialised once, then signed and sent), reads its settings from TOPUP_BASE_URL,
 * TOPUP_API_KEY and TOPUP_API_SECRET (TOPUP_REF_ID names an existing order), and runs as
 * shipped against the demo data: test/docs/code-samples.test.ts runs every one.
 */

type Value = string | number | { [k: string]: Value };

/** A placeholder in a request: an existing order's ref_id, or a new one for each run. */
const REF = '{{REF}}';
const NEW_REF = '{{NEW_REF}}';

interface SampleRequest {
  query?: Record<string, string | number>;
  body?: Record<string, Value>;
  /** The SDK call, with `refId` / `newRefId` in scope. */
  sdk: string;
}

const REQUESTS: Record<string, SampleRequest> = {
  'GET /categories': { sdk: 'topup.categories()' },
  'GET /products': { query: { category_slug: 'free-fire', limit: 10 }, sdk: "topup.products({ category_slug: 'free-fire', limit: 10 })" },
  'POST /order': {
    body: { ref_id: NEW_REF, product_code: 'FF-100', target: '123456789' },
    sdk: "topup.placeOrder({ ref_id: newRefId, product_code: 'FF-100', target: '123456789' })",
  },
  'POST /validation': {
    body: { category_slug: 'free-fire', fields: { user_id: '123456789' } },
    sdk: "topup.validate({ category_slug: 'free-fire', fields: { user_id: '123456789' } })",
  },
  'GET /order-status': { query: { ref_id: REF }, sdk: 'topup.orderStatus(refId)' },
  'POST /check-status': { body: { ref_id: REF }, sdk: 'topup.checkStatus(refId)' },
  'GET /orders': { query: { limit: 10 }, sdk: 'topup.orders({ limit: 10 })' },
  'GET /balance': { sdk: 'topup.balance()' },
  'GET /wallet-history': { query: { limit: 10 }, sdk: 'topup.walletHistory({ limit: 10 })' },
  'GET /callbacks': { query: { ref_id: REF }, sdk: 'topup.callbackLog(refId)' },
  'POST /callbacks/resend': { body: { ref_id: REF }, sdk: 'topup.resendCallback(refId)' },
};

const uses = (r: SampleRequest, placeholder: string) => JSON.stringify(r).includes(placeholder);

function shell(method: string, path: string, r: SampleRequest): string {
  const lines = ['# The timestamp in milliseconds; X-Signature: HMAC-SHA256 of the body followed by it (GET: it alone).', 'TS=$(($(date +%s) * 1000))'];
  if (uses(r, REF)) lines.push('REF_ID=${TOPUP_REF_ID:-demo-001}');
  if (uses(r, NEW_REF)) lines.push('NEW_REF_ID=shop-$(date +%s)-$RANDOM');
  const query = r.query ? `?${Object.entries(r.query).map(([k, v]) => `${k}=${v === REF ? '$REF_ID' : v}`).join('&')}` : '';
  if (method === 'GET') {
    lines.push(`SIG=$(printf '%s' "$TS" | openssl dgst -sha256 -hmac "$TOPUP_API_SECRET" | sed 's/^.*= //')`);
    lines.push(`curl -s "$TOPUP_BASE_URL${path}${query}" \\`, '  -H "X-Api-Key: $TOPUP_API_KEY" -H "X-Timestamp: $TS" -H "X-Signature: $SIG"');
  } else {
    const json = JSON.stringify(r.body).replace(`"${REF}"`, '"$REF_ID"').replace(`"${NEW_REF}"`, '"$NEW_REF_ID"').replace(/"/g, '\\"');
    lines.push(`BODY="${json}"`);
    lines.push(`SIG=$(printf '%s%s' "$BODY" "$TS" | openssl dgst -sha256 -hmac "$TOPUP_API_SECRET" | sed 's/^.*= //')`);
    lines.push(`curl -s "$TOPUP_BASE_URL${path}" -H 'Content-Type: application/json' \\`, '  -H "X-Api-Key: $TOPUP_API_KEY" -H "X-Timestamp: $TS" -H "X-Signature: $SIG" \\', '  --data-binary "$BODY"');
  }
  return lines.join('\n');
}

function sdk(r: SampleRequest): string {
  return [
    "import { TopupClient } from '@topup/reseller-client';",
    '',
    'const topup = new TopupClient({ baseUrl: process.env.TOPUP_BASE_URL, apiKey: process.env.TOPUP_API_KEY, apiSecret: process.env.TOPUP_API_SECRET });',
    ...(uses(r, REF) ? ["const refId = process.env.TOPUP_REF_ID ?? 'demo-001';"] : []),
    ...(uses(r, NEW_REF) ? ['const newRefId = `shop-${Date.now()}`;'] : []),
    '// Signed, with retries that never order twice; the result is `data` (lists: with `meta`).',
    `const data = await ${r.sdk};`,
    'console.log(JSON.stringify({ success: true, data }));',
  ].join('\n');
}

function phpValue(v: Value): string {
  if (v === REF) return '$refId';
  if (v === NEW_REF) return '$newRefId';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return `'${v.replace(/'/g, "\\'")}'`;
  return `[${Object.entries(v).map(([k, x]) => `'${k}' => ${phpValue(x)}`).join(', ')}]`;
}

function php(method: string, path: string, r: SampleRequest): string {
  const lines = ['<?php', "[$base, $key, $secret] = [getenv('TOPUP_BASE_URL'), getenv('TOPUP_API_KEY'), getenv('TOPUP_API_SECRET')];"];
  if (uses(r, REF)) lines.push("$refId = getenv('TOPUP_REF_ID') ?: 'demo-001';");
  if (uses(r, NEW_REF)) lines.push("$newRefId = 'shop-' . time() . '-' . mt_rand();");
  const query = r.query ? ` . '?' . http_build_query(${phpValue(r.query as Record<string, Value>)})` : '';
  lines.push(
    r.body
      ? `$body = json_encode(${phpValue(r.body)}, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE); // these bytes are signed and sent`
      : "$body = ''; // a GET signs the timestamp alone",
    '$ts = (string) (int) floor(microtime(true) * 1000);',
    "$headers = ['X-Api-Key: ' . $key, 'X-Timestamp: ' . $ts, 'X-Signature: ' . hash_hmac('sha256', $body . $ts, $secret)];",
    `$ch = curl_init($base . '${path}'${query});`,
    method === 'GET'
      ? 'curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_HTTPHEADER => $headers]);'
      : "curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_POST => true, CURLOPT_POSTFIELDS => $body, CURLOPT_HTTPHEADER => [...$headers, 'Content-Type: application/json']]);",
    'echo curl_exec($ch), "\\n";',
  );
  return lines.join('\n');
}

function pyValue(v: Value): string {
  if (v === REF) return 'ref_id';
  if (v === NEW_REF) return 'new_ref_id';
  if (typeof v !== 'object') return JSON.stringify(v);
  return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pyValue(x)}`).join(', ')}}`;
}

function python(method: string, path: string, r: SampleRequest): string {
  const lines = [
    'import hashlib, hmac, json, os, time, urllib.error, urllib.parse, urllib.request',
    '',
    'base, key, secret = os.environ["TOPUP_BASE_URL"], os.environ["TOPUP_API_KEY"], os.environ["TOPUP_API_SECRET"]',
  ];
  if (uses(r, REF)) lines.push('ref_id = os.environ.get("TOPUP_REF_ID", "demo-001")');
  if (uses(r, NEW_REF)) lines.push('new_ref_id = "shop-%d" % time.time_ns()');
  const query = r.query ? ` + "?" + urllib.parse.urlencode(${pyValue(r.query as Record<string, Value>)})` : '';
  lines.push(
    r.body
      ? `body = json.dumps(${pyValue(r.body)}, separators=(",", ":")).encode()  # these bytes are signed and sent`
      : 'body = b""  # a GET signs the timestamp alone',
    'ts = str(int(time.time() * 1000))',
    'headers = {"X-Api-Key": key, "X-Timestamp": ts, "X-Signature": hmac.new(secret.encode(), body + ts.encode(), hashlib.sha256).hexdigest()}',
    ...(method === 'POST' ? ['headers["Content-Type"] = "application/json"'] : []),
    `request = urllib.request.Request(base + "${path}"${query}, data=${method === 'POST' ? 'body' : 'None'}, method="${method}", headers=headers)`,
    'try:',
    '    with urllib.request.urlopen(request, timeout=15) as answer:',
    '        print(answer.read().decode())',
    'except urllib.error.HTTPError as error:  # the error envelope: branch on its "error" code',
    '    print(error.read().decode())',
  );
  return lines.join('\n');
}

/** The samples of one operation, in the order the reference shows them. */
export function resellerCodeSamples(method: 'get' | 'post', path: string): { lang: string; label: string; source: string }[] {
  const M = method.toUpperCase();
  const r = REQUESTS[`${M} ${path}`];
  if (!r) throw new Error(`no code sample for ${M} ${path}`);
  return [
    { lang: 'Shell', label: 'curl + openssl', source: shell(M, path, r) },
    { lang: 'JavaScript', label: 'TypeScript SDK', source: sdk(r) },
    { lang: 'PHP', label: 'PHP (curl)', source: php(M, path, r) },
    { lang: 'Python', label: 'Python (standard library)', source: python(M, path, r) },
  ];
}
