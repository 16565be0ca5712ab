import { describe, expect, it } from 'vitest';
import type { FormField } from '../../src/domain/category-form.js';
import { zoneFitsForm, zoneHelp } from '../../src/domain/order-zone.js';

const select = (name: string, values: string[], extra: Partial<FormField> = {}): FormField =>
  ({ name, label: name, role: 'server', type: 'select', options: values.map((value) => ({ value, label: `${value.toUpperCase()} label` })), ...extra });
const text = (name: string, extra: Partial<FormField> = {}): FormField => ({ name, label: name, role: 'server', type: 'text', ...extra });

const region = select('region', ['sea', 'eu']);
const server = select('server', ['prontera-1', 'geffen-2']);

describe('zone against the form', () => {
  it('two selects: region value | server value, in that order', () => {
    expect(zoneFitsForm([region, server], 'sea|prontera-1')).toBe(true);
    expect(zoneFitsForm([region, server], 'eu|geffen-2')).toBe(true);
    for (const zone of ['SEA label|PRONTERA-1 label', 'sea|prontera-9', 'sea', 'seaprontera-1', 'prontera-1|sea', 'sea|prontera-1|', 'sea||prontera-1', '|sea|prontera-1', 'sea|prontera-1|x', 'sea|']) {
      expect(zoneFitsForm([region, server], zone), zone).toBe(false);
    }
  });

  it('one select: one of its values, nothing else', () => {
    expect(zoneFitsForm([server], 'geffen-2')).toBe(true);
    expect(zoneFitsForm([server], 'GEFFEN-2 label')).toBe(false);
    expect(zoneFitsForm([server], 'geffen-2|')).toBe(false);
  });

  it('free server fields without options keep any zone', () => {
    expect(zoneFitsForm([text('zone_id')], 'anything|at all')).toBe(true);
    expect(zoneFitsForm([text('zone_id'), text('other')], 'x')).toBe(true);
  });

  it('a select beside a free field: the free part is any non-empty text', () => {
    expect(zoneFitsForm([region, text('zone_id')], 'eu|1234')).toBe(true);
    expect(zoneFitsForm([region, text('zone_id')], 'eu|12|34')).toBe(true);
    expect(zoneFitsForm([region, text('zone_id')], 'eu|')).toBe(false);
    expect(zoneFitsForm([region, text('zone_id')], 'asia|1234')).toBe(false);
    expect(zoneFitsForm([text('zone_id'), region], '12|34|sea')).toBe(true);
    expect(zoneFitsForm([text('zone_id'), region], '1234|asia')).toBe(false);
  });

  it('an optional field may be left out, as POST /validation leaves out an empty value', () => {
    const optionalRegion = { ...region, required: false };
    expect(zoneFitsForm([optionalRegion, server], 'prontera-1')).toBe(true);
    expect(zoneFitsForm([optionalRegion, server], 'sea|prontera-1')).toBe(true);
    expect(zoneFitsForm([optionalRegion, server], 'sea')).toBe(false);
    expect(zoneFitsForm([region, { ...server, required: false }], 'sea')).toBe(true);
  });

  it('an option value holding the separator still fits', () => {
    const odd = select('server', ['a|b', 'a']);
    expect(zoneFitsForm([odd, region], 'a|b|sea')).toBe(true);
    expect(zoneFitsForm([odd, region], 'a|sea')).toBe(true);
    expect(zoneFitsForm([odd, region], 'a|b')).toBe(false);
  });

  it('the help names the shape and every allowed value, not the labels, and cuts long lists short', () => {
    const help = zoneHelp([region, server]);
    expect(help).toContain('<region>|<server>');
    expect(help).toContain('region one of "sea", "eu"; server one of "prontera-1", "geffen-2"');
    expect(help).not.toContain('SEA label');
    const many = select('server', Array.from({ length: 25 }, (_, i) => `s${i}`));
    expect(zoneHelp([many])).toMatch(/"s19" and 5 more \(GET \/categories\)$/);
    expect(zoneHelp([text('zone_id')])).toBe("send <zone_id> (in the form's order)");
  });
});
