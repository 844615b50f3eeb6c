const FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** Deadlines are computed in UTC; saying so avoids a reporter's local clock suggesting another day. */
export function utcDate(iso: string): string {
  return `${FORMAT.format(new Date(iso))} UTC`;
}
