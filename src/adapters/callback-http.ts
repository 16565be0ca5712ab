import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress, validateCallbackUrl } from '../domain/callback-url.js';

export interface CallbackHttpResult {
  httpStatus: number | null;
  error: string | null;
  responseSnippet: string | null;
  durationMs: number;
}

const SNIPPET_BYTES = 512;

/** Resolves a host name to all its addresses (dns.lookup by default; tests pass their own). */
export type ResolveHost = (hostname: string, family?: number) => Promise<{ address: string; family: number }[]>;

export const systemResolve: ResolveHost = (hostname, family) => dns.promises.lookup(hostname, { all: true, family: (family ?? 0) as 0 | 4 | 6 });

/**
 * DNS lookup that only ever hands back addresses that passed the SSRF check, so the
 * socket connects to exactly the address that was checked (no DNS-rebinding window).
 */
function guardedLookup(allowPrivate: boolean, resolve: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options.family as number | undefined).then(
      (addresses) => {
        const usable = allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
        if (usable.length === 0) {
          const e = Object.assign(new Error(`callback host ${hostname} resolves only to private or reserved addresses`), { code: 'EBLOCKED' });
          return (callback as any)(e);
        }
        if ((options as { all?: boolean }).all) return (callback as any)(null, usable);
        return (callback as any)(null, usable[0]!.address, usable[0]!.family);
      },
      (err) => (callback as any)(err),
    );
  };
}

/**
 * Connections to receivers are kept open between callbacks (a reseller's callbacks go to
 * one URL): a new TCP connection per callback was a large part of the callback path's CPU.
 * A pooled socket is connected to an address that passed the check when it was opened, and
 * each `allowPrivate` setting has its own pool, so a socket opened under the looser rule
 * never serves the stricter one. Idle sockets close after a few seconds, before common
 * servers' own keep-alive timeouts (Node's is 5 s).
 */
const IDLE_SOCKET_MS = 4_000;
const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * POSTs one callback: never follows redirects, gives up after `timeoutMs`, keeps a bounded
 * snippet of the answer for the delivery log.
 */
export function postCallback(input: { url: string; body: string; headers: Record<string, string>; timeoutMs: number; allowPrivate: boolean; resolve?: ResolveHost }): Promise<CallbackHttpResult> {
  const started = Date.now();
  const done = (r: Omit<CallbackHttpResult, 'durationMs'>): CallbackHttpResult => ({ ...r, durationMs: Date.now() - started });
  const check = validateCallbackUrl(input.url, { allowPrivate: input.allowPrivate });
  if (!check.ok) return Promise.resolve(done({ httpStatus: null, error: check.message, responseSnippet: null }));
  const url = check.url;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<CallbackHttpResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    let req: http.ClientRequest;
    const send = (agent: http.Agent | false) => {
      req = client.request(
        url,
        {
          method: 'POST',
          headers: { ...input.headers, 'content-length': String(Buffer.byteLength(input.body)) },
          lookup: isIP(url.hostname.replace(/^\[|\]$/g, '')) ? undefined : guardedLookup(input.allowPrivate, input.resolve ?? systemResolve),
          agent,
        },
        onResponse,
      );
      const sent = req;
      sent.on('error', (e: NodeJS.ErrnoException) => {
        // A kept-open socket the receiver closed as we wrote to it: the request never got
        // an answer there, so it goes once more on a new connection, in the same attempt.
        if (sent.reusedSocket && !answered && (e.code === 'ECONNRESET' || e.code === 'EPIPE') && !settled) return send(false);
        finish({ httpStatus: null, error: e.message, responseSnippet: null });
      });
      // Without it, Nagle's algorithm meeting the receiver's delayed ACK held many small
      // callbacks back by 40 ms or more on an otherwise idle connection.
      sent.setNoDelay(true);
      sent.end(input.body);
    };
    let answered = false;
    const onResponse = (res: http.IncomingMessage) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < SNIPPET_BYTES) chunks.push(c);
        size += c.length;
      });
      res.on('end', () => finish({ httpStatus: res.statusCode ?? null, error: null, responseSnippet: Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8') }));
      res.on('error', (e) => finish({ httpStatus: res.statusCode ?? null, error: e.message, responseSnippet: null }));
    };
    const timer = setTimeout(() => {
      finish({ httpStatus: null, error: `no answer within ${input.timeoutMs} ms`, responseSnippet: null });
      req.destroy();
    }, input.timeoutMs);
    send(agentFor(url.protocol, input.allowPrivate));
  });
}
