import type { BytesLike } from './crypto.js';
import { MemoryCallbackStore, type CallbackStore } from './dedupe.js';
import type { CallbackPayload } from './types.js';
import { verifyCallback, type HeadersInput, type VerifyFailure, type VerifyOptions } from './verify.js';

export interface CallbackInfo {
  callbackId: string | null;
  attempt: number | null;
  timestamp: number;
}

export interface CallbackHandlerOptions extends Omit<VerifyOptions, 'now'> {
  /** Your API secret: callbacks are signed with it. */
  secret: string;
  /**
   * Runs once per delivery round, after the signature checked out. Throw (or reject) to
   * answer 500: the service retries, and the round's id is released so that retry runs it.
   */
  onCallback(payload: CallbackPayload, info: CallbackInfo): unknown;
  /** Remembers handled X-Callback-Id values (default: in memory, this process only). */
  store?: CallbackStore;
  /** How long a handled id is remembered (default 24 h; a round's attempts span about 35 s). */
  dedupeTtlMs?: number;
  /** Told about every refused request (for your logs); never sees the secret. */
  onRejected?(reason: VerifyFailure | 'handler_failed', error?: unknown): void;
}

export interface CallbackOutcome {
  status: 200 | 400 | 401 | 500;
  body: { ok: boolean; duplicate?: boolean; error?: string };
}

/**
 * The framework-free core of every handler: verify, deduplicate on X-Callback-Id, run
 * `onCallback`, and say what to answer. 2xx means "delivered" to the service, so a repeat
 * of a handled round is answered 200 without running `onCallback` again.
 */
export function createCallbackProcessor(options: CallbackHandlerOptions): (rawBody: BytesLike, headers: HeadersInput) => Promise<CallbackOutcome> {
  const store = options.store ?? new MemoryCallbackStore();
  const ttl = options.dedupeTtlMs ?? 24 * 60 * 60_000;
  return async (rawBody, headers) => {
    const v = await verifyCallback(rawBody, headers, options.secret, options);
    if (!v.ok) {
      options.onRejected?.(v.reason);
      return v.reason === 'bad_body' ? { status: 400, body: { ok: false, error: v.reason } } : { status: 401, body: { ok: false, error: v.reason } };
    }
    // Claimed only after verifying: forged requests cannot fill the store or block real ids.
    if (v.callbackId !== null && !(await store.claim(v.callbackId, ttl))) return { status: 200, body: { ok: true, duplicate: true } };
    try {
      await options.onCallback(v.payload, { callbackId: v.callbackId, attempt: v.attempt, timestamp: v.timestamp });
    } catch (err) {
      if (v.callbackId !== null) await store.release(v.callbackId);
      options.onRejected?.('handler_failed', err);
      return { status: 500, body: { ok: false, error: 'handler_failed' } };
    }
    return { status: 200, body: { ok: true } };
  };
}

// ---- fetch-style Request → Response (Next.js route handlers, Hono, Cloudflare Workers, Deno, Bun)

/** `export const POST = fetchCallbackHandler({ secret, onCallback })` */
export function fetchCallbackHandler(options: CallbackHandlerOptions): (request: Request) => Promise<Response> {
  const handle = createCallbackProcessor(options);
  return async (request) => {
    const out = await handle(new Uint8Array(await request.arrayBuffer()), request.headers);
    return new Response(JSON.stringify(out.body), { status: out.status, headers: { 'content-type': 'application/json' } });
  };
}

// ---- Express (and plain node:http): typed structurally, no dependency on express

export interface NodeLikeRequest {
  headers: Record<string, string | string[] | undefined>;
  /** A Buffer/Uint8Array (express.raw) or a string (express.text); unread when absent. */
  body?: unknown;
  [Symbol.asyncIterator]?(): AsyncIterator<Uint8Array | string>;
}

export interface NodeLikeResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
}

async function rawBodyOf(req: NodeLikeRequest): Promise<BytesLike | null> {
  const b = req.body;
  if (b instanceof Uint8Array || typeof b === 'string') return b;
  // Parsed already (express.json): the exact bytes are gone, and the signature is over them.
  if (b !== undefined && b !== null && !(typeof b === 'object' && Object.keys(b as object).length === 0)) return null;
  if (!req[Symbol.asyncIterator]) return null;
  const chunks: Uint8Array[] = [];
  for await (const c of req as AsyncIterable<Uint8Array | string>) chunks.push(typeof c === 'string' ? new TextEncoder().encode(c) : c);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * `app.post('/topup/callback', express.raw({ type: 'application/json' }), expressCallbackHandler({ secret, onCallback }))`
 * Also works as a plain `node:http` request listener (it reads the body itself).
 */
export function expressCallbackHandler(options: CallbackHandlerOptions): (req: NodeLikeRequest, res: NodeLikeResponse) => Promise<void> {
  const handle = createCallbackProcessor(options);
  return async (req, res) => {
    const raw = await rawBodyOf(req);
    const out = raw === null
      ? { status: 500, body: { ok: false, error: 'raw body unavailable: mount express.raw({ type: "application/json" }) on this route, not express.json()' } }
      : await handle(raw, req.headers);
    res.statusCode = out.status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(out.body));
  };
}

// ---- Fastify: typed structurally, no dependency on fastify

export interface FastifyLikeRequest {
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  /** Set by plugins such as fastify-raw-body. */
  rawBody?: unknown;
}

export interface FastifyLikeReply {
  code(status: number): FastifyLikeReply;
  header(name: string, value: string): FastifyLikeReply;
  send(payload?: unknown): unknown;
}

/**
 * A Fastify route handler. The route needs the body as a Buffer: use
 * `registerFastifyCallback`, or add a buffer parser for application/json in its scope.
 */
export function fastifyCallbackHandler(options: CallbackHandlerOptions): (request: FastifyLikeRequest, reply: FastifyLikeReply) => Promise<unknown> {
  const handle = createCallbackProcessor(options);
  return async (request, reply) => {
    const candidate = request.rawBody ?? request.body;
    const raw = candidate instanceof Uint8Array || typeof candidate === 'string' ? candidate : null;
    const out = raw === null
      ? { status: 500, body: { ok: false, error: 'raw body unavailable: register the route with registerFastifyCallback()' } }
      : await handle(raw, request.headers);
    return reply.code(out.status).header('content-type', 'application/json').send(JSON.stringify(out.body));
  };
}

/** The part of a Fastify instance the helper below uses. */
interface FastifyScopeLike {
  addContentTypeParser(type: string, opts: { parseAs: 'buffer' }, parser: (req: unknown, body: unknown, done: (err: Error | null, body?: unknown) => void) => void): unknown;
  post(path: string, handler: (request: any, reply: any) => unknown): unknown;
}

/**
 * Registers `POST path` in its own encapsulated scope, where application/json bodies stay
 * raw bytes (your other routes keep Fastify's JSON parser):
 * `await registerFastifyCallback(app, '/topup/callback', { secret, onCallback })`
 */
export function registerFastifyCallback(app: { register: (...args: any[]) => unknown }, path: string, options: CallbackHandlerOptions): unknown {
  const handler = fastifyCallbackHandler(options);
  return app.register(async (scope: FastifyScopeLike) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post(path, handler);
  });
}
