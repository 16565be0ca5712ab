/**
 * The operator's calendar for reports: days in a fixed UTC offset (REPORT_TIME_ZONE, an
 * IANA zone without daylight saving, Asia/Jakarta by default = UTC+07:00). The daily
 * aggregates store a day as its number since 1970-01-01 in that offset, computed in SQL as
 * (epoch ms + offset ms) / 86 400 000 by both stores' triggers: integer arithmetic, the
 * same on SQLite and PostgreSQL. A zone with DST cannot be one offset; it is refused.
 */

export const DAY_MS = 86_400_000;
export const DEFAULT_REPORT_TIME_ZONE = 'Asia/Jakarta';

export type Granularity = 'day' | 'week' | 'month';

/** The zone's offset from UTC in minutes at `at` (positive east of Greenwich). */
function offsetAt(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(at));
  const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const asUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / 60_000);
}

/**
 * The zone's one offset in minutes, or an error saying why it cannot be used: unknown, or
 * its offset changes within ten years either side of `now` (daylight saving or a change of law).
 */
export function fixedOffsetMinutes(zone: string, now = Date.now()): { ok: true; minutes: number } | { ok: false; error: string } {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return { ok: false, error: `unknown time zone "${zone}" (use an IANA name such as Asia/Jakarta)` };
  }
  const minutes = offsetAt(zone, now);
  // Monthly samples catch any DST rule; a change of law further off is a rebuild's business.
  for (let m = -120; m <= 120; m++) {
    if (offsetAt(zone, now + m * 30 * DAY_MS) !== minutes) {
      return { ok: false, error: `time zone "${zone}" changes its UTC offset (daylight saving); reports need a zone with one offset, such as Asia/Jakarta or Etc/GMT-7` };
    }
  }
  return { ok: true, minutes };
}

/** The report day of an instant: days since 1970-01-01 in the offset (what the triggers compute). */
export const dayOf = (ms: number, offsetMinutes: number) => Math.floor((ms + offsetMinutes * 60_000) / DAY_MS);

/** "YYYY-MM-DD" of a day number. */
export const dayToIso = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The day number of "YYYY-MM-DD", or null if it is not a real date. */
export function isoToDay(s: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return null;
  const ms = Date.parse(`${s}T00:00:00Z`);
  if (Number.isNaN(ms) || dayToIso(ms / DAY_MS) !== s) return null;
  return ms / DAY_MS;
}

/** The first day of the bucket holding `day`: itself, its ISO week's Monday, or its month's first day. */
export function bucketStart(day: number, g: Granularity): number {
  if (g === 'day') return day;
  // 1970-01-01 was a Thursday: (day + 3) mod 7 is 0 on Mondays.
  if (g === 'week') return day - ((((day + 3) % 7) + 7) % 7);
  const d = new Date(day * DAY_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY_MS;
}

/** The first day of the bucket after the one starting at `start`. */
export function nextBucket(start: number, g: Granularity): number {
  if (g === 'day') return start + 1;
  if (g === 'week') return start + 7;
  const d = new Date(start * DAY_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / DAY_MS;
}

/** Every bucket start from the bucket of `from` to that of `to` (inclusive days). */
export function bucketStarts(from: number, to: number, g: Granularity): number[] {
  const out: number[] = [];
  for (let b = bucketStart(from, g); b <= to; b = nextBucket(b, g)) out.push(b);
  return out;
}

/** "+07:00" for 420. */
export function offsetLabel(minutes: number): string {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}
