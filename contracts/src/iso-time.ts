/**
 * An instant as the site writes it for people and files: ISO 8601 in UTC, to the millisecond
 * (the API, the CSV export: `2026-11-06T18:00:00.000Z`) or to the second (the operator's terminal:
 * `2026-11-06T18:00:00Z`); `none` stands in for a missing instant (`null` in JSON, `''` in CSV,
 * `-` in a table).
 */
export function isoTime<T>(ms: number | null, none: T, precision: 'ms' | 's' = 'ms'): string | T {
  if (ms === null) return none;
  const text = new Date(ms).toISOString();
  return precision === 's' ? text.replace(/\.\d{3}Z$/, 'Z') : text;
}
