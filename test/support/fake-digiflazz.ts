import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Digiflazz buyer API on 127.0.0.1, written from the protocol facts
 * (/work/shared/suppliers/digiflazz-buyer-api.md), not from our adapter: it checks `sign`,
 * keeps transactions by ref_id for good (a repeated ref_id answers the existing transaction,
 * with another SKU or customer number rc 49), refused ones included (status Gagal, never
 * charged), answers every refusal in the transaction's shape (`status: "Gagal"`, the rc),
 * serves a price list with both statuses, stock and cut-off windows, can hold an order
 * pending and settle it through a signed webhook, can take an order and never answer,
 * and can answer any rc.
 */
export interface FakeProduct {
  buyer_sku_code: string;
  product_name?: string;
  category?: string;
  brand?: string;
  price: number;
  buyer_product_status?: boolean;
  seller_product_status?: boolean;
  unlimited_stock?: boolean;
  stock?: number;
  multi?: boolean;
  start_cut_off?: string;
  end_cut_off?: string;
}

export interface FakeTransaction {
  ref_id: string;
  customer_no: string;
  buyer_sku_code: string;
  message: string;
  status: 'Sukses' | 'Pending' | 'Gagal';
  rc: string;
  sn: string;
  buyer_last_saldo: number;
  price: number;
  testing: boolean;
  /** How many /transaction requests carried this ref_id after the one that placed it. */
  checks: number;
}

/** What the supplier does with a new transaction for a customer number. */
export type Behaviour =
  | { kind: 'success'; sn?: string }
  | { kind: 'pending' }
  /**
   * Answer this rc. With a status the transaction is recorded so; without, the answer is a
   * Gagal refusal of the call that stores nothing (as the call refusals 40, 41, 45 are).
   */
  | { kind: 'rc'; rc: string; status?: 'Sukses' | 'Pending' | 'Gagal'; message?: string }
  /** Take the order (Pending), then never answer that request: the caller times out. */
  | { kind: 'hang' };

export interface FakeDigiflazz {
  /** Base address, like https://api.digiflazz.com/v1. */
  url: string;
  username: string;
  apiKey: string;
  webhookSecret: string;
  deposit: number;
  products: Map<string, FakeProduct>;
  transactions: Map<string, FakeTransaction>;
  /** Every request: path and parsed body. */
  requests: { path: string; body: any }[];
  /** Behaviour per customer_no (default: immediate success). */
  behaviours: Map<string, Behaviour>;
  /** When set, every request is refused with this rc and nothing stored (e.g. 45 caller IP not whitelisted). */
  failAll: string | null;
  /** While true, every connection is reset after the request is read: an outage, outcome unknown. */
  outage: boolean;
  /** The rc of a refusal for max_price (not in the protocol facts; configurable). */
  maxPriceRc: string;
  /** Minimum time between two price-list answers (rc 83 within it). */
  priceListMinIntervalMs: number;
  /** "Now" in epoch ms for cut-off windows (default: real time). */
  now: () => number;
  /** Settles a transaction and (when url is given) pushes the signed update webhook there. */
  settle(refId: string, outcome: { status: 'Sukses'; sn: string } | { status: 'Gagal'; rc: string; message?: string }, webhookUrl?: string): Promise<number | null>;
  /** Posts a webhook with this body (signed with `secret`, default the configured one). */
  pushWebhook(webhookUrl: string, body: string, opts?: { secret?: string; event?: string; signature?: string }): Promise<{ status: number; body: any }>;
  /** Lets every held ("hang") request go: their sockets are destroyed without an answer. */
  releaseHeld(): void;
  close(): Promise<void>;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
export const hubSignature = (secret: string, body: string) => `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;

function minutesOf(hhmm: string) {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
}

/** Cut-off windows are in Indonesian western time (UTC+7); equal times mean none. */
function inCutOff(p: FakeProduct, nowMs: number) {
  const start = minutesOf(p.start_cut_off ?? '00:00');
  const end = minutesOf(p.end_cut_off ?? '00:00');
  if (start === end) return false;
  const m = Math.floor(nowMs / 60_000 + 7 * 60) % 1440;
  return start < end ? m >= start && m < end : m >= start || m < end;
}

export async function startFakeDigiflazz(opts: { username?: string; apiKey?: string; webhookSecret?: string; deposit?: number; products?: FakeProduct[] } = {}): Promise<FakeDigiflazz> {
  const held = new Set<http.ServerResponse>();
  let lastPriceList = -Infinity;
  let snCounter = 0;
  const fake: FakeDigiflazz = {
    url: '',
    username: opts.username ?? 'buyer01',
    apiKey: opts.apiKey ?? 'dev-key-123',
    webhookSecret: opts.webhookSecret ?? 'hook-secret-xyz',
    deposit: opts.deposit ?? 1_000_000,
    products: new Map((opts.products ?? []).map((p) => [p.buyer_sku_code, p])),
    transactions: new Map(),
    requests: [],
    behaviours: new Map(),
    failAll: null,
    outage: false,
    maxPriceRc: '02',
    priceListMinIntervalMs: 0,
    now: () => Date.now(),
    async settle(refId, outcome, webhookUrl) {
      const tx = fake.transactions.get(refId);
      if (!tx) throw new Error(`no transaction ${refId}`);
      if (outcome.status === 'Sukses') Object.assign(tx, { status: 'Sukses', rc: '00', sn: outcome.sn, message: 'Transaksi Sukses' });
      else {
        Object.assign(tx, { status: 'Gagal', rc: outcome.rc, sn: '', message: outcome.message ?? 'Transaksi Gagal' });
        if (!tx.testing) fake.deposit += tx.price;
      }
      if (!webhookUrl) return null;
      return (await fake.pushWebhook(webhookUrl, JSON.stringify({ data: publicTx(tx) }))).status;
    },
    async pushWebhook(webhookUrl, body, o = {}) {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'DigiFlazz-Hookshot',
          'x-digiflazz-event': o.event ?? 'update',
          'x-hub-signature': o.signature ?? hubSignature(o.secret ?? fake.webhookSecret, body),
        },
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    releaseHeld() {
      for (const res of held) res.socket?.destroy();
      held.clear();
    },
    close: async () => {
      fake.releaseHeld();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };

  const answer = (res: http.ServerResponse, status: number, data: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data }));
  };
  const error = (res: http.ServerResponse, rc: string, message: string) => answer(res, 400, { rc, message, status: 'Gagal' });
  const signed = (body: any, x: string) => body.username === fake.username && typeof body.sign === 'string' && body.sign === md5(fake.username + fake.apiKey + x);

  /** A refusal of a /transaction call, in the transaction's shape; it stores nothing. */
  const refuseCall = (res: http.ServerResponse, body: any, rc: string, message: string) =>
    answer(res, 400, { ref_id: str(body?.ref_id), customer_no: str(body?.customer_no), buyer_sku_code: str(body?.buyer_sku_code), message, status: 'Gagal', rc, sn: '', buyer_last_saldo: fake.deposit, price: 0 });

  function transaction(res: http.ServerResponse, body: any) {
    const { ref_id: ref, buyer_sku_code: sku, customer_no: customer } = body;
    if (![ref, sku, customer].every((v) => typeof v === 'string' && v !== '')) return refuseCall(res, body, '40', 'Payload error');
    if (!signed(body, ref)) return refuseCall(res, body, '41', 'Signature Anda salah');
    const existing = fake.transactions.get(ref);
    if (existing) {
      // Asking again with the same ref_id answers the existing transaction (refused ones too).
      if (existing.buyer_sku_code !== sku || existing.customer_no !== customer) return refuseCall(res, body, '49', 'Ref ID tidak unik');
      existing.checks++;
      return answer(res, existing.status === 'Gagal' ? 400 : 200, publicTx(existing));
    }
    const product = fake.products.get(sku);
    const testing = body.testing === true;
    const record = (status: FakeTransaction['status'], rc: string, message: string, sn = '') => {
      const tx: FakeTransaction = { ref_id: ref, customer_no: customer, buyer_sku_code: sku, message, status, rc, sn, buyer_last_saldo: fake.deposit, price: product?.price ?? 0, testing, checks: 0 };
      fake.transactions.set(ref, tx);
      return tx;
    };
    // A refused transaction: kept under its ref_id for good, never charged.
    const refuse = (rc: string, message: string) => answer(res, 400, publicTx(record('Gagal', rc, message)));
    if (!product || product.buyer_product_status === false) return refuse('43', 'SKU tidak di temukan atau Non-Aktif');
    if (product.seller_product_status === false) return refuse('53', 'Produk Seller Sedang Tidak Tersedia');
    if (inCutOff(product, fake.now())) return refuse('58', 'Sedang Cut Off');
    if (!product.unlimited_stock && (product.stock ?? 0) <= 0) return refuse('68', 'Stok habis');
    if (typeof body.max_price === 'number' && product.price > body.max_price) return refuse(fake.maxPriceRc, 'Harga melebihi max price');
    if (!testing && fake.deposit < product.price) return refuse('44', 'Saldo tidak cukup');
    const behaviour = fake.behaviours.get(customer) ?? { kind: 'success' };
    if (behaviour.kind === 'rc' && behaviour.status === undefined) return refuseCall(res, body, behaviour.rc, behaviour.message ?? `rc ${behaviour.rc}`);
    if (!testing) fake.deposit -= product.price;
    if (!product.unlimited_stock) product.stock = (product.stock ?? 0) - 1;
    switch (behaviour.kind) {
      case 'success':
        return answer(res, 200, publicTx(record('Sukses', '00', 'Transaksi Sukses', behaviour.sn ?? `SN${String(++snCounter).padStart(8, '0')}`)));
      case 'pending':
        return answer(res, 200, publicTx(record('Pending', '03', 'Transaksi Pending')));
      case 'hang':
        record('Pending', '03', 'Transaksi Pending');
        held.add(res);
        return;
      case 'rc': {
        const tx = record(behaviour.status!, behaviour.rc, behaviour.message ?? `rc ${behaviour.rc}`);
        if (tx.status === 'Gagal' && !testing) fake.deposit += product.price;
        return answer(res, tx.status === 'Gagal' ? 400 : 200, publicTx(tx));
      }
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (fake.outage) return req.socket.destroy();
      const path = (req.url ?? '').replace(/^\/v1/, '');
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = null;
      }
      fake.requests.push({ path, body });
      if (req.method !== 'POST' || !body || typeof body !== 'object') return error(res, '40', 'Payload error');
      if (fake.failAll) return path === '/transaction' ? refuseCall(res, body, fake.failAll, `rc ${fake.failAll}`) : error(res, fake.failAll, `rc ${fake.failAll}`);
      if (path === '/cek-saldo') {
        if (body.cmd !== 'deposit' || !signed(body, 'depo')) return error(res, '41', 'Signature Anda salah');
        return answer(res, 200, { deposit: fake.deposit });
      }
      if (path === '/price-list') {
        if (body.cmd !== 'prepaid' || !signed(body, 'pricelist')) return error(res, '41', 'Signature Anda salah');
        const now = fake.now();
        if (fake.priceListMinIntervalMs > 0 && now - lastPriceList < fake.priceListMinIntervalMs) return error(res, '83', 'Anda sudah mencapai limitasi pengecekan pricelist');
        lastPriceList = now;
        const list = [...fake.products.values()].filter((p) => body.code === undefined || p.buyer_sku_code === body.code);
        return answer(res, 200, list.map(publicProduct));
      }
      if (path === '/transaction') return transaction(res, body);
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function publicTx(tx: FakeTransaction) {
  const { checks: _checks, testing: _testing, ...rest } = tx;
  return rest;
}

function publicProduct(p: FakeProduct) {
  return {
    product_name: p.product_name ?? p.buyer_sku_code, category: p.category ?? 'Games', brand: p.brand ?? 'MOBILE LEGENDS', type: 'Umum', seller_name: 'Seller One',
    price: p.price, buyer_sku_code: p.buyer_sku_code, buyer_product_status: p.buyer_product_status ?? true, seller_product_status: p.seller_product_status ?? true,
    unlimited_stock: p.unlimited_stock ?? true, stock: p.stock ?? 0, multi: p.multi ?? true, start_cut_off: p.start_cut_off ?? '00:00', end_cut_off: p.end_cut_off ?? '00:00', desc: '-',
  };
}
