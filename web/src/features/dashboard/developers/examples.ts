/** Copy-paste examples of a signed POST /order, prefilled with the key and base URL; the secret comes from the environment. */
export function examples(baseUrl: string, apiKey: string): { lang: string; label: string; code: string }[] {
  const body = '{"product_code":"ML-86","ref_id":"INV-1001","target":"12345678","zone":"1234"}';
  return [
    {
      lang: 'bash', label: 'curl + openssl',
      code: `BODY='${body}'
TS=$(($(date +%s) * 1000))
SIG=$(printf '%s%s' "$BODY" "$TS" | openssl dgst -sha256 -hmac "$API_SECRET" | sed 's/^.* //')
curl -sS -X POST '${baseUrl}/order' \\
  -H 'Content-Type: application/json' \\
  -H 'X-Api-Key: ${apiKey}' \\
  -H "X-Timestamp: $TS" \\
  -H "X-Signature: $SIG" \\
  --data-raw "$BODY"`,
    },
    {
      lang: 'javascript', label: 'Node.js',
      code: `import { createHmac } from 'node:crypto';

const body = JSON.stringify({ product_code: 'ML-86', ref_id: 'INV-1001', target: '12345678', zone: '1234' });
const ts = String(Date.now());
const signature = createHmac('sha256', process.env.API_SECRET).update(body + ts).digest('hex');
const res = await fetch('${baseUrl}/order', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Api-Key': '${apiKey}', 'X-Timestamp': ts, 'X-Signature': signature },
  body,
});
console.log(res.status, await res.json());`,
    },
    {
      lang: 'php', label: 'PHP',
      code: `<?php
$body = json_encode(['product_code' => 'ML-86', 'ref_id' => 'INV-1001', 'target' => '12345678', 'zone' => '1234']);
$ts = (string) round(microtime(true) * 1000);
$sig = hash_hmac('sha256', $body . $ts, getenv('API_SECRET'));
$ch = curl_init('${baseUrl}/order');
curl_setopt_array($ch, [
  CURLOPT_POST => true,
  CURLOPT_POSTFIELDS => $body,
  CURLOPT_RETURNTRANSFER => true,
  CURLOPT_HTTPHEADER => ['Content-Type: application/json', 'X-Api-Key: ${apiKey}', "X-Timestamp: $ts", "X-Signature: $sig"],
]);
echo curl_exec($ch);`,
    },
    {
      lang: 'python', label: 'Python',
      code: `import hashlib, hmac, json, os, time, urllib.request

body = json.dumps({"product_code": "ML-86", "ref_id": "INV-1001", "target": "12345678", "zone": "1234"}, separators=(",", ":"))
ts = str(int(time.time() * 1000))
sig = hmac.new(os.environ["API_SECRET"].encode(), (body + ts).encode(), hashlib.sha256).hexdigest()
req = urllib.request.Request("${baseUrl}/order", data=body.encode(), method="POST", headers={
    "Content-Type": "application/json", "X-Api-Key": "${apiKey}", "X-Timestamp": ts, "X-Signature": sig})
print(urllib.request.urlopen(req).read().decode())`,
    },
  ];
}
