// A CommonJS consumer of the SDK (require, no import): run by test/sdk/surface.test.ts
// against the real service with TOPUP_BASE_URL, TOPUP_API_KEY and TOPUP_API_SECRET set.
const { TopupClient, TopupApiError, TopupNotFoundError, verifyCallback } = require('@topup/reseller-client');
const { SANDBOX_TARGETS, signedCallback } = require('@topup/reseller-client/testing');

async function main() {
  const topup = new TopupClient({ baseUrl: process.env.TOPUP_BASE_URL, apiKey: process.env.TOPUP_API_KEY, apiSecret: process.env.TOPUP_API_SECRET });
  const balance = await topup.balance();
  let notFound = null;
  try {
    await topup.orderStatus('never-placed-cjs');
  } catch (e) {
    notFound = { api: e instanceof TopupApiError, kind: e instanceof TopupNotFoundError, code: e.code };
  }
  const cb = await signedCallback({ secret: 's', payload: { ref_id: 'cjs' } });
  const verified = await verifyCallback(cb.body, cb.headers, 's');
  console.log(JSON.stringify({
    balance: typeof balance.balance, requestId: typeof balance.$response.requestId, notFound, verified: verified.ok, target: SANDBOX_TARGETS.INVALID_ID,
  }));
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
