import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { signatureMatches } from '../../src/domain/signature.js';

/**
 * The baselines' HTTP ceiling, in its own process: a bare Fastify server that verifies the
 * same HMAC as the service on POST /order and answers, and serves a fixed JSON page on
 * GET /products (the same bytes the service returned).
 */
const secret = process.env.BENCH_SECRET ?? '';
const productsJson = process.env.BENCH_PRODUCTS_FILE ? readFileSync(process.env.BENCH_PRODUCTS_FILE, 'utf8') : '{}';
const app = Fastify({ logger: false, bodyLimit: 4096 });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));

app.post('/api/v1/order', async (req, reply) => {
  const ts = String(req.headers['x-timestamp'] ?? '');
  const ok = signatureMatches(secret, ts, req.body as Buffer, String(req.headers['x-signature'] ?? ''));
  if (!ok) return reply.status(401).send({ success: false, error: 'INVALID_SIGNATURE' });
  const body = JSON.parse((req.body as Buffer).toString('utf8'));
  return { success: true, data: { order_id: '00000000-0000-0000-0000-000000000000', order_code: 'ORD-000000000000', ref_id: body.ref_id, product_name: 'x', price: 15000, status: 'processing', message: 'Order received and is being processed' } };
});
app.get('/api/v1/products', async (req, reply) => {
  const ts = String(req.headers['x-timestamp'] ?? '');
  if (!signatureMatches(secret, ts, '', String(req.headers['x-signature'] ?? ''))) return reply.status(401).send({});
  reply.header('content-type', 'application/json; charset=utf-8');
  return productsJson;
});

// The callback receiver of B3/B4: answers at once, like a healthy reseller endpoint.
app.post('/callback', async (_req, reply) => reply.status(204).send());

const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`bare listening on ${address}\n`);
