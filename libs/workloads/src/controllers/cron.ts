/**
 * Standard 5-field cron schedules (as robfig/cron's ParseStandard, which the CronJob controller
 * uses): lists, ranges, steps, month/day names, `?`, and the @yearly…@hourly descriptors. Times are UTC.
 */

export class CronScheduleError extends Error {
  constructor(schedule: string, detail: string) {
    super(`unparseable schedule "${schedule}": ${detail}`);
    this.name = 'CronScheduleError';
  }
}

interface Field {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: Field[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];
const FIELD_NAMES = ['minute', 'hour', 'day of month', 'month', 'day of week'];
// A Map: an object's lookup would also find "constructor", "__proto__" … on its prototype.
const DESCRIPTORS: ReadonlyMap<string, string> = new Map([
  ['@yearly', '0 0 1 1 *'],
  ['@annually', '0 0 1 1 *'],
  ['@monthly', '0 0 1 * *'],
  ['@weekly', '0 0 * * 0'],
  ['@daily', '0 0 * * *'],
  ['@midnight', '0 0 * * *'],
  ['@hourly', '0 * * * *'],
]);

export interface CronSchedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  daysOfWeek: ReadonlySet<number>;
  /** `*` or `?` in day-of-month / day-of-week: the other day field alone decides. */
  anyDayOfMonth: boolean;
  anyDayOfWeek: boolean;
}

function parseValue(text: string, f: Field, schedule: string, field: string): number {
  const lower = text.toLowerCase();
  if (f.names && lower in f.names) return f.names[lower];
  if (!/^\d+$/.test(text))
    throw new CronScheduleError(schedule, `failed to parse int from ${text} in ${field}`);
  return Number(text);
}

function parseField(
  text: string,
  f: Field,
  schedule: string,
  field: string,
): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const [rangePart, stepPart, extra] = part.split('/');
    if (extra !== undefined) throw new CronScheduleError(schedule, `too many slashes: ${part}`);
    let lo: number;
    let hi: number;
    if (rangePart === '*' || rangePart === '?') {
      lo = f.min;
      hi = f.max;
      if (stepPart === undefined) star = true;
    } else {
      const [a, b, more] = rangePart.split('-');
      if (more !== undefined) throw new CronScheduleError(schedule, `too many hyphens: ${part}`);
      lo = parseValue(a, f, schedule, field);
      hi = b === undefined ? lo : parseValue(b, f, schedule, field);
      // robfig: "N/step" means N through the field's maximum.
      if (b === undefined && stepPart !== undefined) hi = f.max;
    }
    const step = stepPart === undefined ? 1 : Number(stepPart);
    if (!Number.isInteger(step) || step <= 0)
      throw new CronScheduleError(schedule, `step of range should be a positive number: ${part}`);
    if (lo < f.min)
      throw new CronScheduleError(schedule, `beginning of range (${lo}) below minimum (${f.min}): ${part}`);
    if (hi > f.max)
      throw new CronScheduleError(schedule, `end of range (${hi}) above maximum (${f.max}): ${part}`);
    if (lo > hi)
      throw new CronScheduleError(
        schedule,
        `beginning of range (${lo}) beyond end of range (${hi}): ${part}`,
      );
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return { values, star };
}

export function parseCronSchedule(schedule: string): CronSchedule {
  const trimmed = schedule.trim();
  if (/^(CRON_)?TZ=/.test(trimmed))
    throw new CronScheduleError(schedule, 'time zones in the schedule are not supported; use spec.timeZone');
  const expanded = DESCRIPTORS.get(trimmed.toLowerCase()) ?? trimmed;
  if (expanded.startsWith('@')) throw new CronScheduleError(schedule, `unrecognized descriptor: ${expanded}`);
  const parts = expanded.split(/\s+/).filter(Boolean);
  if (parts.length !== 5)
    throw new CronScheduleError(
      schedule,
      `expected exactly 5 fields, found ${parts.length}: ${JSON.stringify(parts)}`,
    );
  const parsed = parts.map((p, i) => parseField(p, FIELDS[i], schedule, FIELD_NAMES[i]));
  return {
    minutes: parsed[0].values,
    hours: parsed[1].values,
    daysOfMonth: parsed[2].values,
    months: parsed[3].values,
    daysOfWeek: parsed[4].values,
    anyDayOfMonth: parsed[2].star,
    anyDayOfWeek: parsed[4].star,
  };
}

function dayMatches(s: CronSchedule, d: Date): boolean {
  const dom = s.daysOfMonth.has(d.getUTCDate());
  const dow = s.daysOfWeek.has(d.getUTCDay());
  // Both restricted: either may match (classic cron); otherwise both must.
  if (!s.anyDayOfMonth && !s.anyDayOfWeek) return dom || dow;
  return dom && dow;
}

export function matchesSchedule(s: CronSchedule, d: Date): boolean {
  return (
    s.minutes.has(d.getUTCMinutes()) &&
    s.hours.has(d.getUTCHours()) &&
    s.months.has(d.getUTCMonth() + 1) &&
    dayMatches(s, d)
  );
}

/** Schedule times t with from < t <= to, minute by minute (bounded by `limit`). */
export function scheduleTimes(s: CronSchedule, from: Date, to: Date, limit = 1000): Date[] {
  const out: Date[] = [];
  const minute = 60_000;
  let t = Math.floor(from.getTime() / minute) * minute + minute;
  for (; t <= to.getTime() && out.length < limit; t += minute) {
    const d = new Date(t);
    if (matchesSchedule(s, d)) out.push(d);
  }
  return out;
}
