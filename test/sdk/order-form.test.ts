import { orderTarget, TopupError, TopupFormError, type FormField } from '@topup/reseller-client';
import { describe, expect, it } from 'vitest';

const account: FormField = { name: 'user_id', label: 'Character ID', role: 'account_id', type: 'text', required: true };
const region: FormField = { name: 'region', label: 'Region', role: 'server', type: 'select', required: true, options: [{ value: 'sea', label: 'Southeast Asia' }, { value: 'eu', label: 'Europe' }] };
const server: FormField = { name: 'server', label: 'Server', role: 'server', type: 'select', required: true, options: [{ value: 'prontera-1', label: 'Prontera 1' }, { value: 'geffen-2', label: 'Geffen 2' }] };
const ragnarok = { name: 'Ragnarok Origin', form: [account, region, server] };

function formError(f: () => unknown): TopupFormError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TopupFormError);
    expect(e).toBeInstanceOf(TopupError);
    return e as TopupFormError;
  }
  throw new Error('expected a TopupFormError');
}

describe('orderTarget: POST /order target and zone from a category form', () => {
  it('joins the server values with | in the form order, whatever order the values come in', () => {
    expect(orderTarget(ragnarok, { server: 'prontera-1', region: 'sea', user_id: '4001234' })).toEqual({ target: '4001234', zone: 'sea|prontera-1' });
  });

  it('a game without server fields has no zone; a free server field takes its text; numbers become text', () => {
    expect(orderTarget({ name: 'Free Fire', form: [account] }, { user_id: 123456789 })).toEqual({ target: '123456789' });
    const zoneId: FormField = { name: 'zone_id', label: 'Zone ID', role: 'server', type: 'text', required: true };
    expect(orderTarget({ name: 'Mobile Legends', form: [account, zoneId] }, { user_id: ' 12345678 ', zone_id: '2001' })).toEqual({ target: '12345678', zone: '2001' });
  });

  it('fields of role other are not part of the order; an optional empty server field is left out', () => {
    const note: FormField = { name: 'note', label: 'Note', role: 'other', type: 'text', required: true };
    const form = [account, { ...region, required: false }, server, note];
    expect(orderTarget({ name: 'RO', form }, { user_id: '1', server: 'geffen-2' })).toEqual({ target: '1', zone: 'geffen-2' });
  });

  it('refuses a label, a value the select does not offer and a missing value, naming the field and the allowed values', () => {
    const label = formError(() => orderTarget(ragnarok, { user_id: '1', region: 'Southeast Asia', server: 'prontera-1' }));
    expect(label.field).toBe('region');
    expect(label.message).toContain('"sea" (Southeast Asia), "eu" (Europe)');
    expect(formError(() => orderTarget(ragnarok, { user_id: '1', region: 'sea', server: 'prontera-9' })).field).toBe('server');
    expect(formError(() => orderTarget(ragnarok, { user_id: '1', region: 'sea' })).message).toBe('server (Server) is required for Ragnarok Origin');
    expect(formError(() => orderTarget(ragnarok, { region: 'sea', server: 'geffen-2' })).field).toBe('user_id');
  });

  it('a voucher has no account field: its target is a reference of your own', () => {
    expect(formError(() => orderTarget({ name: 'Steam Wallet', form: [] }, {})).message).toMatch(/voucher/);
  });
});
