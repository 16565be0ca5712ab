import { localeOf } from './money.js';

/** A time in the viewer's time zone; `withOffset` adds it (detail pages: "GMT+7"). */
export function formatDateTime(iso: string | null | undefined, lang: string, withOffset = false): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(localeOf(lang), {
    year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
    ...(withOffset ? { timeZoneName: 'shortOffset' } : {}),
  }).format(d);
}

/** A calendar date ("YYYY-MM-DD" from the API) as a short label, e.g. for chart axes. */
export function formatDay(ymd: string, lang: string): string {
  const d = new Date(`${ymd}T00:00:00`);
  return new Intl.DateTimeFormat(localeOf(lang), { day: 'numeric', month: 'short' }).format(d);
}
