const DAY_MS = 86_400_000;

/** A set of 'YYYY-MM-DD' dates (UTC) that do not count as business days besides weekends. */
export type HolidayList = ReadonlySet<string>;

export const NO_HOLIDAYS: HolidayList = new Set();

function dateKey(dayStart: number): string {
  return new Date(dayStart).toISOString().slice(0, 10);
}

export function isBusinessDay(dayStart: number, holidays: HolidayList = NO_HOLIDAYS): boolean {
  const weekday = new Date(dayStart).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.has(dateKey(dayStart));
}

/**
 * The deadline `days` business days after `at` (unix ms): the end of the `days`-th business day
 * after the UTC day `at` falls on, i.e. the following midnight UTC. The day of receipt never
 * counts, whatever its hour (a report sent at 23:59 gets no less time than one sent at 00:01), and a
 * report sent on Saturday or Sunday has the same deadline as one sent on the Friday before. Weekends
 * and the holiday list are skipped.
 */
export function addBusinessDays(at: number, days: number, holidays: HolidayList = NO_HOLIDAYS): number {
  if (!Number.isSafeInteger(days) || days < 0) throw new RangeError('days must be a non-negative integer');
  let day = Math.floor(at / DAY_MS) * DAY_MS;
  let counted = 0;
  while (counted < days) {
    day += DAY_MS;
    if (isBusinessDay(day, holidays)) counted += 1;
  }
  return days === 0 ? at : day + DAY_MS;
}

/** Parses 'YYYY-MM-DD,YYYY-MM-DD' (REPORT_HOLIDAYS); throws naming the first bad entry. */
export function parseHolidays(spec: string | undefined): HolidayList {
  const dates = (spec ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  for (const d of dates) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(`${d}T00:00:00Z`)) || dateKey(Date.parse(`${d}T00:00:00Z`)) !== d) {
      throw new Error(`REPORT_HOLIDAYS: "${d}" is not a YYYY-MM-DD date`);
    }
  }
  return new Set(dates);
}
