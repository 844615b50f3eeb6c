import { describe, expect, it } from 'vitest';
import { addBusinessDays, isBusinessDay, parseHolidays } from './business-days';
import { deadlinesOf, missed, nextDeadline, overdue } from './deadlines';

const t = (iso: string) => Date.parse(iso);
const d = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

// 2026-11-02 is a Monday. Deadlines are the midnight (UTC) ending the n-th business day after the day of receipt.
describe('addBusinessDays (UTC, weekends skipped)', () => {
  it.each([
    ['Mon 09:00 + 1', '2026-11-02T09:00:00Z', 1, '2026-11-04T00:00:00.000Z'],
    ['Mon 23:59 + 1 (hour of receipt does not matter)', '2026-11-02T23:59:59Z', 1, '2026-11-04T00:00:00.000Z'],
    ['Mon 00:00 + 1', '2026-11-02T00:00:00Z', 1, '2026-11-04T00:00:00.000Z'],
    ['Thu + 1 = end of Fri', '2026-11-05T12:00:00Z', 1, '2026-11-07T00:00:00.000Z'],
    ['Fri + 1 = end of Mon', '2026-11-06T12:00:00Z', 1, '2026-11-10T00:00:00.000Z'],
    ['Sat + 1 = end of Mon', '2026-11-07T12:00:00Z', 1, '2026-11-10T00:00:00.000Z'],
    ['Sun + 1 = end of Mon', '2026-11-08T12:00:00Z', 1, '2026-11-10T00:00:00.000Z'],
    ['Mon + 5 = end of next Mon', '2026-11-02T10:00:00Z', 5, '2026-11-10T00:00:00.000Z'],
    ['Mon + 7 = end of next Wed', '2026-11-02T10:00:00Z', 7, '2026-11-12T00:00:00.000Z'],
    ['Tue + 7 = end of next Thu', '2026-11-03T10:00:00Z', 7, '2026-11-13T00:00:00.000Z'],
    ['Wed + 7 = end of next Fri', '2026-11-04T10:00:00Z', 7, '2026-11-14T00:00:00.000Z'],
    ['Thu + 7 = end of Mon after next', '2026-11-05T10:00:00Z', 7, '2026-11-17T00:00:00.000Z'],
    ['Fri + 7 = end of Tue after next', '2026-11-06T10:00:00Z', 7, '2026-11-18T00:00:00.000Z'],
    ['Sat + 7 = same as Fri + 7', '2026-11-07T10:00:00Z', 7, '2026-11-18T00:00:00.000Z'],
    ['Sun + 7 = same as Fri + 7', '2026-11-08T23:00:00Z', 7, '2026-11-18T00:00:00.000Z'],
    ['Mon + 14 = end of Fri two weeks on', '2026-11-02T10:00:00Z', 14, '2026-11-21T00:00:00.000Z'],
    ['Fri + 14 spans three weekends', '2026-11-06T10:00:00Z', 14, '2026-11-27T00:00:00.000Z'],
    ['Sat + 14', '2026-11-07T10:00:00Z', 14, '2026-11-27T00:00:00.000Z'],
    ['across a month end', '2026-11-27T10:00:00Z', 7, '2026-12-09T00:00:00.000Z'],
    ['across a year end', '2026-12-30T10:00:00Z', 7, '2027-01-09T00:00:00.000Z'],
    ['across Feb 29 of a leap year', '2028-02-25T10:00:00Z', 3, '2028-03-02T00:00:00.000Z'],
    ['across a DST change elsewhere (UTC only)', '2026-03-27T10:00:00Z', 1, '2026-03-31T00:00:00.000Z'],
  ])('%s', (_name, start, days, expected) => {
    expect(d(addBusinessDays(t(start), days))).toBe(expected);
  });

  it('0 days is the moment itself', () => {
    expect(addBusinessDays(t('2026-11-07T10:00:00Z'), 0)).toBe(t('2026-11-07T10:00:00Z'));
  });

  it('refuses negative or fractional days', () => {
    expect(() => addBusinessDays(0, -1)).toThrow(RangeError);
    expect(() => addBusinessDays(0, 1.5)).toThrow(RangeError);
  });

  it('skips configured holidays like weekends', () => {
    const holidays = parseHolidays('2026-12-25, 2027-01-01');
    // Thu 2026-12-24 + 1: Fri 25th is a holiday, so end of Mon 28th.
    expect(d(addBusinessDays(t('2026-12-24T10:00:00Z'), 1, holidays))).toBe('2026-12-29T00:00:00.000Z');
    expect(d(addBusinessDays(t('2026-12-24T10:00:00Z'), 7, holidays))).toBe('2027-01-07T00:00:00.000Z');
    expect(isBusinessDay(t('2026-12-25T00:00:00Z'), holidays)).toBe(false);
    expect(isBusinessDay(t('2026-12-25T00:00:00Z'))).toBe(true);
  });

  it.each(['2026-13-01', '2026-02-30', 'tomorrow', '2026-1-5'])('rejects the holiday %j', (bad) => {
    expect(() => parseHolidays(bad)).toThrow(/REPORT_HOLIDAYS/);
  });

  it('every result is a midnight after a business day, never sooner than the calendar days', () => {
    for (let start = t('2026-01-01T05:00:00Z'); start < t('2027-01-01T00:00:00Z'); start += 86_400_000 * 0.77) {
      for (const days of [1, 7, 14]) {
        const due = addBusinessDays(start, days);
        expect(due % 86_400_000).toBe(0);
        expect(isBusinessDay(due - 86_400_000)).toBe(true);
        expect(due - start).toBeGreaterThan(days * 86_400_000);
      }
    }
  });
});

const report = (over: Partial<Parameters<typeof deadlinesOf>[0]> = {}) => ({
  created_at: t('2026-11-06T18:00:00Z'),
  acknowledged_at: null,
  resolved_at: null,
  appealed_at: null,
  appeal_decided_at: null,
  ...over,
});

describe('report deadlines', () => {
  it('acknowledge in 48 hours (calendar), resolve in 7 business days, appeal in 14 business days from the appeal', () => {
    const r = report({ appealed_at: t('2026-11-20T09:00:00Z') });
    const due = deadlinesOf(r);
    expect(d(due.acknowledgeBy)).toBe('2026-11-08T18:00:00.000Z');
    expect(d(due.resolveBy)).toBe('2026-11-18T00:00:00.000Z');
    expect(d(due.appealDecideBy)).toBe('2026-12-11T00:00:00.000Z');
    expect(deadlinesOf(report()).appealDecideBy).toBeNull();
  });

  it('overdue lists pending steps past their deadline only; missed also counts late completions', () => {
    const now = t('2026-11-09T00:00:00Z');
    expect(overdue(report(), now)).toEqual(['acknowledge']);
    expect(overdue(report(), t('2026-11-08T17:59:59Z'))).toEqual([]);
    const lateAck = report({ acknowledged_at: t('2026-11-08T19:00:00Z') });
    expect(overdue(lateAck, now)).toEqual([]);
    expect(missed(lateAck, now)).toEqual(['acknowledge']);
    expect(overdue(report({ acknowledged_at: now }), t('2026-11-18T00:00:01Z'))).toEqual(['resolve']);
    const appealed = report({ acknowledged_at: now, resolved_at: now, appealed_at: t('2026-11-10T09:00:00Z') });
    expect(overdue(appealed, t('2026-12-01T00:00:00Z'))).toEqual([]);
    expect(overdue(appealed, t('2026-12-01T00:00:01Z'))).toEqual(['appeal']);
  });

  it('the next deadline is the earliest pending one', () => {
    expect(d(nextDeadline(report()))).toBe('2026-11-08T18:00:00.000Z');
    expect(d(nextDeadline(report({ acknowledged_at: 1 })))).toBe('2026-11-18T00:00:00.000Z');
    expect(nextDeadline(report({ acknowledged_at: 1, resolved_at: 2 }))).toBeNull();
  });
});
