// workerd (Cloudflare Workers' runtime, no Node compatibility flags): a Worker that runs the
// scenario for the input POSTed to it and answers its result, or the error, as JSON.
import * as sdk from 'sdk/index.js';
import { scenario } from 'scenario.mjs';

export default {
  async fetch(request) {
    try {
      return Response.json({ ok: true, result: await scenario(sdk, await request.json()) });
    } catch (err) {
      return Response.json({ ok: false, error: String(err?.stack ?? err) });
    }
  },
};
