/**
 * What every runtime does with the SDK's built bundle, against the real service: place a
 * signed order, read it back (order-status, then until final), fetch the callback the
 * service delivered for it from the test's feed, and verify it as received and tampered.
 * Plain JavaScript with no imports: each runtime's launcher hands it the SDK module.
 */
export async function scenario(sdk, input) {
  const { baseUrl, apiKey, apiSecret, refId, callbackFeed } = input;
  const client = new sdk.TopupClient({ baseUrl, apiKey, apiSecret, retries: { max: 1, baseDelayMs: 10 } });
  const placed = await client.placeOrder({ ref_id: refId, product_code: 'FF-100', target: '123456789' });
  const status = await client.orderStatus(refId);
  const final = await client.waitForFinal(refId, { intervalMs: 25, waitMs: 15_000 });

  // The feed answers once the service has delivered this order's callback.
  const res = await fetch(`${callbackFeed}?ref_id=${encodeURIComponent(refId)}`);
  if (!res.ok) throw new Error(`callback feed answered ${res.status}`);
  const callback = await res.json();
  const verified = await sdk.verifyCallback(callback.body, callback.headers, apiSecret);
  const tampered = await sdk.verifyCallback(callback.body.replace(`"${final.status}"`, '"refunded"'), callback.headers, apiSecret);
  const wrongSecret = await sdk.verifyCallback(callback.body, callback.headers, `${apiSecret}x`);
  // The same callback through the ready fetch-style handler, as a Worker or Deno.serve would get it.
  const handled = [];
  const handler = sdk.fetchCallbackHandler({ secret: apiSecret, onCallback: (p) => void handled.push(p.ref_id) });
  const signed = Object.fromEntries(Object.entries(callback.headers).filter(([k]) => k.startsWith('x-') || k === 'content-type'));
  const answer = await handler(new Request('http://receiver/topup/callback', { method: 'POST', headers: signed, body: callback.body }));

  let apiError = null;
  try {
    await client.orderStatus(`${refId}-never-placed`);
  } catch (err) {
    apiError = { isTopupApiError: err instanceof sdk.TopupApiError, code: err.code, status: err.status };
  }

  return {
    // What this runtime offers besides web APIs: the edge runtime must offer none of these.
    nodeGlobals: { process: typeof globalThis.process, Buffer: typeof globalThis.Buffer, require: typeof globalThis.require },
    placed: { ref_id: placed.ref_id, status: placed.status, order_code: placed.order_code, recovered: placed.recovered },
    status: { ref_id: status.ref_id, order_code: status.order_code },
    final: { ref_id: final.ref_id, status: final.status },
    callbackRef: JSON.parse(callback.body).ref_id,
    verified: verified.ok ? { ok: true, ref_id: verified.payload.ref_id, status: verified.payload.status, callbackId: verified.callbackId } : verified,
    tampered,
    wrongSecret,
    handler: { status: answer.status, body: await answer.json(), handled },
    apiError,
  };
}
