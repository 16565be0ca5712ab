import { describe, expect, it } from 'vitest';
import { customerNoForForm, customerNumber, mergeRouteOptions, parseRouteOptions, routeOptionsProblem } from '../../src/domain/route-options.js';
import { verifyHubSignature } from '../../src/adapters/suppliers/digiflazz/webhook.js';
import { digiflazzSign } from '../../src/adapters/suppliers/digiflazz/protocol.js';
import { hubSignature } from '../support/fake-digiflazz.js';

describe('route options: the supplier customer number', () => {
  it('fills {target} and {zone}; a missing zone is empty; the default is the target alone', () => {
    expect(customerNumber({}, '12345678', '2001')).toBe('12345678');
    expect(customerNumber({ customerNo: '{target}{zone}' }, '12345678', '2001')).toBe('123456782001');
    expect(customerNumber({ customerNo: '{target}|{zone}' }, '555', null)).toBe('555|');
    expect(customerNumber({ customerNo: '{target}({zone})' }, '9', '$&')).toBe('9($&)');
  });

  it('refuses formats without {target}, with unknown placeholders, or of a bad length', () => {
    expect(routeOptionsProblem({ customerNo: '{target}{zone}' })).toBeNull();
    expect(routeOptionsProblem({ customerNo: '{zone}-only-zone' })).toMatch(/\{target\}/);
    expect(routeOptionsProblem({ customerNo: '{target}{server}' })).toMatch(/unknown placeholder \{server\}/);
    expect(routeOptionsProblem({ customerNo: `{target}${'x'.repeat(60)}` })).toMatch(/8 to 64/);
  });

  it('a game form implies the format: none without server fields, user id then zone with one, none guessable with several', () => {
    const id = { role: 'account_id' };
    const server = { role: 'server' };
    expect(customerNoForForm([id])).toEqual({ zone: false });
    expect(customerNoForForm([id, server, { role: 'other' }])).toEqual({ zone: true, derived: '{target}{zone}' });
    expect(customerNoForForm([id, server, server])).toEqual({ zone: true, derived: null });
  });

  it('a patch merges: a value sets, null removes, absent keeps', () => {
    const base = { customerNo: '{target}{zone}', testing: true };
    expect(mergeRouteOptions(base, {})).toEqual(base);
    expect(mergeRouteOptions(base, { testing: false })).toEqual({ customerNo: '{target}{zone}', testing: false });
    expect(mergeRouteOptions(base, { customerNo: null })).toEqual({ testing: true });
    expect(mergeRouteOptions({}, { customerNo: '{target}|{zone}', testing: null })).toEqual({ customerNo: '{target}|{zone}' });
    expect(base).toEqual({ customerNo: '{target}{zone}', testing: true });
  });

  it('reads stored options leniently (unknown or mistyped fields dropped)', () => {
    expect(parseRouteOptions(null)).toEqual({});
    expect(parseRouteOptions('not json')).toEqual({});
    expect(parseRouteOptions('{"customerNo":"{target}{zone}","testing":true,"x":1}')).toEqual({ customerNo: '{target}{zone}', testing: true });
    expect(parseRouteOptions('{"testing":"yes"}')).toEqual({});
  });
});

describe('digiflazz signatures', () => {
  it('sign is md5(username + key + X) in lowercase hex', () => {
    expect(digiflazzSign({ username: 'user', apiKey: 'key' }, 'depo')).toBe('e9d1db43a49c569bcc2bc7164cbe6127'); // md5("userkeydepo")
  });

  it('X-Hub-Signature: sha1= HMAC of the raw body; anything else is refused', () => {
    const body = Buffer.from('{"data":{"ref_id":"a"}}');
    const good = hubSignature('secret-123', body.toString());
    expect(verifyHubSignature(body, good, 'secret-123')).toBe(true);
    expect(verifyHubSignature(body, good.toUpperCase().replace('SHA1=', 'sha1='), 'secret-123')).toBe(true);
    expect(verifyHubSignature(body, good, 'other-secret')).toBe(false);
    expect(verifyHubSignature(Buffer.from('{"data":{"ref_id":"b"}}'), good, 'secret-123')).toBe(false);
    expect(verifyHubSignature(body, good.slice(5), 'secret-123')).toBe(false);
    expect(verifyHubSignature(body, undefined, 'secret-123')).toBe(false);
    expect(verifyHubSignature(body, [good], 'secret-123')).toBe(false);
    expect(verifyHubSignature(body, `${good}00`, 'secret-123')).toBe(false);
  });
});
