import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postCallback, type ResolveHost } from '../../src/adapters/callback-http.js';
import { isPublicAddress, validateCallbackUrl } from '../../src/domain/callback-url.js';
import { isAppError } from '../../src/errors.js';
import { SetCallbackUrl } from '../../src/services/set-callback-url.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createReseller } from '../support/resellers.js';
import { storeKinds } from '../support/stores.js';

/** One address of every special-purpose range a callback must never reach (IANA registries). */
const SPECIAL: [range: string, address: string][] = [
  ['0.0.0.0/8 "this network"', '0.0.0.0'],
  ['0.0.0.0/8', '0.1.2.3'],
  ['10/8 private', '10.1.2.3'],
  ['100.64/10 CGNAT', '100.64.0.1'],
  ['100.64/10 CGNAT (top)', '100.127.255.254'],
  ['127/8 loopback', '127.0.0.1'],
  ['127/8 loopback', '127.255.0.9'],
  ['169.254/16 link-local (cloud metadata)', '169.254.169.254'],
  ['172.16/12 private', '172.31.255.255'],
  ['192.0.0/24 IETF protocol assignments', '192.0.0.8'],
  ['192.0.2/24 TEST-NET-1', '192.0.2.1'],
  ['192.168/16 private', '192.168.1.1'],
  ['198.18/15 benchmarking', '198.19.0.1'],
  ['198.51.100/24 TEST-NET-2', '198.51.100.7'],
  ['203.0.113/24 TEST-NET-3', '203.0.113.9'],
  ['224/4 multicast', '224.0.0.1'],
  ['224/4 multicast', '239.255.255.250'],
  ['240/4 reserved', '240.0.0.1'],
  ['255.255.255.255 broadcast', '255.255.255.255'],
  ['::/128 unspecified', '::'],
  ['::1 loopback', '::1'],
  ['::ffff:0:0/96 IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ['::ffff:0:0/96 IPv4-mapped private', '::ffff:10.0.0.1'],
  ['::ffff:0:0/96 IPv4-mapped metadata', '::ffff:169.254.169.254'],
  ['::/96 IPv4-compatible loopback', '::127.0.0.1'],
  ['::/96 IPv4-compatible private', '::10.0.0.1'],
  ['::/96 IPv4-compatible public', '::8.8.8.8'],
  ['::ffff:0:0:0/96 IPv4-translated (RFC 6145)', '::ffff:0:7f00:1'],
  ['64:ff9b::/96 NAT64 of loopback', '64:ff9b::7f00:1'],
  ['64:ff9b::/96 NAT64 of a public address', '64:ff9b::808:808'],
  ['64:ff9b:1::/48 local-use NAT64', '64:ff9b:1::a00:1'],
  ['2002::/16 6to4 of loopback', '2002:7f00:1::1'],
  ['2002::/16 6to4 of a public address', '2002:808:808::1'],
  ['2001::/32 Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ['2001:2::/48 benchmarking', '2001:2::1'],
  ['2001:db8::/32 documentation', '2001:db8::1'],
  ['3fff::/20 documentation', '3fff::1'],
  ['100::/64 discard', '100::1'],
  ['fc00::/7 unique local', 'fc00::1'],
  ['fc00::/7 unique local (AWS metadata)', 'fd00:ec2::254'],
  ['fe80::/10 link-local', 'fe80::1'],
  ['fec0::/10 site-local (deprecated)', 'fec0::1'],
  ['ff00::/8 multicast', 'ff02::1'],
  ['ff00::/8 multicast (global scope)', 'ff0e::1'],
  ['5f00::/16 segment routing', '5f00::1'],
  ['outside 2000::/3 (unallocated)', '4000::1'],
];

const PUBLIC = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8'];

const literalUrl = (address: string) => (address.includes(':') ? `http://[${address}]:8080/cb` : `http://${address}:8080/cb`);
/** A resolver under the test's control: every name resolves to `address`. */
const resolvesTo = (address: string): ResolveHost => async () => [{ address, family: address.includes(':') ? 6 : 4 }];

describe('callback SSRF: special-purpose addresses of both families', () => {
  it.each(SPECIAL)('%s (%s) is not public', (_range, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it('ordinary public unicast addresses are', () => {
    for (const a of PUBLIC) expect([a, isPublicAddress(a)]).toEqual([a, true]);
    for (const junk of ['', 'example.com', '1.2.3', 'fe80::1%eth0', '::ffff:999.1.1.1']) expect([junk, isPublicAddress(junk)]).toEqual([junk, false]);
  });

  it('set time: every special address is refused as a URL literal, public ones pass', () => {
    for (const [range, address] of SPECIAL) {
      const check = validateCallbackUrl(literalUrl(address), { allowPrivate: false });
      expect([range, check.ok]).toEqual([range, false]);
      expect(validateCallbackUrl(literalUrl(address), { allowPrivate: true }).ok).toBe(true);
    }
    for (const a of PUBLIC) expect([a, validateCallbackUrl(literalUrl(a), { allowPrivate: false }).ok]).toEqual([a, true]);
    // The report's example: IPv4-compatible loopback, written as the URL parser prints it too.
    expect(validateCallbackUrl('http://[::127.0.0.1]/', { allowPrivate: false }).ok).toBe(false);
    expect(validateCallbackUrl('http://[::7f00:1]/', { allowPrivate: false }).ok).toBe(false);
  });

  it('attempt time: a literal or a name resolving to any special address is never connected to', async () => {
    for (const [range, address] of SPECIAL) {
      const literal = await postCallback({ url: literalUrl(address), body: '{}', headers: {}, timeoutMs: 2000, allowPrivate: false });
      expect([range, literal.httpStatus, literal.error]).toEqual([range, null, expect.stringMatching(/private or reserved/)]);
      const named = await postCallback({ url: 'http://callback.example.test:8080/cb', body: '{}', headers: {}, timeoutMs: 2000, allowPrivate: false, resolve: resolvesTo(address) });
      expect([range, named.httpStatus, named.error]).toEqual([range, null, expect.stringMatching(/private or reserved/)]);
    }
  });
});

describe.each(storeKinds())('callback SSRF at set time after DNS (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  const callbackUrlOf = async (id: string) =>
    (await t.platform.database.db.selectFrom('resellers').select('callback_url').where('id', '=', id).executeTakeFirstOrThrow()).callback_url;

  it('a host resolving to any special address is refused and nothing is stored; a public one is stored', async () => {
    const r = await createReseller(t.platform, t.baseUrl);
    for (const [range, address] of SPECIAL) {
      const svc = new SetCallbackUrl({ db: t.platform.database.db, clock: { now: () => Date.now() }, allowPrivate: false, resolve: resolvesTo(address) });
      const err = await svc.execute(r.id, 'https://callback.example.test/cb').catch((e: unknown) => e);
      expect([range, isAppError(err) && err.code, isAppError(err) && err.message]).toEqual([range, 'VALIDATION_ERROR', expect.stringMatching(/private or reserved/)]);
    }
    expect(await callbackUrlOf(r.id)).toBeNull();
    const svc = new SetCallbackUrl({ db: t.platform.database.db, clock: { now: () => Date.now() }, allowPrivate: false, resolve: resolvesTo('2606:4700:4700::1111') });
    await svc.execute(r.id, 'https://callback.example.test/cb');
    expect(await callbackUrlOf(r.id)).toBe('https://callback.example.test/cb');
  });
});
