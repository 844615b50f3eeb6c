/**
 * HTTP-date (RFC 9110 §5.6.7): IMF-fixdate and the two obsolete forms recipients must still accept,
 * RFC 850 and asctime. Nothing else: `Date.parse` would also take ISO 8601, local times and bare
 * numbers, and a conditional header carrying one of those must be ignored, not compared.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

// Each yields [day, month, year, hour, minute, second] in this order.
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/** RFC 850's two-digit year: the most recent year with those digits not more than 50 years ahead. */
function fullYear(twoDigits: number, now: Date): number {
  const thisYear = now.getUTCFullYear();
  let year = thisYear - (thisYear % 100) + twoDigits;
  if (year > thisYear + 50) year -= 100;
  return year;
}

function seconds(year: number, month: string, day: number, hour: number, minute: number, second: number): number | null {
  const m = MONTHS.indexOf(month);
  if (hour > 23 || minute > 59 || second > 59 || day < 1) return null;
  // setUTCFullYear, not Date.UTC: that one reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, m, day);
  date.setUTCHours(hour, minute, second, 0);
  // A day past the month's end (31 Feb) rolls over into the next month: refuse it instead.
  if (date.getUTCDate() !== day || date.getUTCMonth() !== m) return null;
  return date.getTime() / 1000;
}

/** Unix seconds, or null when the value is not an HTTP-date (the header is then ignored). */
export function parseHttpDate(value: string, now = new Date()): number | null {
  let match = IMF_FIXDATE.exec(value);
  if (match) {
    const [, d, mon = '', y, h, mi, s] = match;
    return seconds(Number(y), mon, Number(d), Number(h), Number(mi), Number(s));
  }
  match = RFC850.exec(value);
  if (match) {
    const [, d, mon = '', y, h, mi, s] = match;
    return seconds(fullYear(Number(y), now), mon, Number(d), Number(h), Number(mi), Number(s));
  }
  match = ASCTIME.exec(value);
  if (match) {
    const [, mon = '', d = '', h, mi, s, y] = match;
    return seconds(Number(y), mon, Number(d.trim()), Number(h), Number(mi), Number(s));
  }
  return null;
}
