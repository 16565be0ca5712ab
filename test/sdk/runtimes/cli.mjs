// Deno and Bun: `deno run --allow-net=127.0.0.1 cli.mjs` / `bun run cli.mjs`, the input as
// JSON on stdin. Prints the scenario's result, or the error, as one line of JSON.
import * as sdk from '../../../packages/client/dist/index.js';
import { scenario } from './scenario.mjs';

const stdin = globalThis.Deno ? globalThis.Deno.stdin.readable : globalThis.Bun.stdin.stream();
try {
  const input = JSON.parse(await new Response(stdin).text());
  console.log(JSON.stringify({ ok: true, result: await scenario(sdk, input) }));
} catch (err) {
  console.log(JSON.stringify({ ok: false, error: String(err?.stack ?? err) }));
}
