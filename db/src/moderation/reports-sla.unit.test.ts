import { describe, expect, it } from 'vitest';
import { parseHolidays } from './business-days';
import { queueOrder, slaOf } from './handling';
import type { ReportRow } from './repository';

const t = (iso: string) => Date.parse(iso);

function report(reference: string, created: string, done: Partial<ReportRow> = {}): ReportRow {
  return {
    id: 1,
    reference,
    content_url: '/vod/x',
    reason: 'other',
    details: '',
    reporter_email: null,
    created_at: t(created),
    acknowledged_at: null,
    acknowledged_by: null,
    resolved_at: null,
    resolved_by: null,
    outcome: null,
    resolution_note: null,
    appealed_at: null,
    appeal_text: null,
    appeal_email: null,
    appeal_decided_at: null,
    appeal_decided_by: null,
    appeal_decision: null,
    appeal_note: null,
    ...done,
  };
}

// 2026-11-02 is a Monday. Acknowledge within 48 h; decide within 7 business days; the console's
// amber is "the next deadline falls by the end of the next business day".
describe('slaOf: where a report stands against its promises', () => {
  const acked = { acknowledged_at: t('2026-11-02T10:00:00Z') };
  it.each([
    ['a pending acknowledgement past 48 h', report('A', '2026-11-02T09:00:00Z'), '2026-11-04T09:00:01Z', 'overdue', ['acknowledge']],
    ['acknowledgement due in an hour', report('A', '2026-11-02T09:00:00Z'), '2026-11-04T08:00:00Z', 'due_soon', []],
    [
      'decision due at the end of next Wednesday, seen on Monday',
      report('A', '2026-11-02T09:00:00Z', acked),
      '2026-11-09T12:00:00Z',
      'on_time',
      [],
    ],
    [
      'the same, seen on Tuesday (due by the end of the next business day)',
      report('A', '2026-11-02T09:00:00Z', acked),
      '2026-11-10T12:00:00Z',
      'due_soon',
      [],
    ],
    ['the same, seen on Thursday', report('A', '2026-11-02T09:00:00Z', acked), '2026-11-12T00:00:01Z', 'overdue', ['resolve']],
  ] as const)('%s', (_name, r, at, state, late) => {
    const sla = slaOf(r, t(at), new Set());
    expect(sla.state).toBe(state);
    expect(sla.late).toEqual(late);
  });

  it('a holiday moves both the deadline and what counts as "the next business day"', () => {
    const r = report('A', '2026-11-02T09:00:00Z', { acknowledged_at: t('2026-11-02T10:00:00Z') });
    // Tuesday 10 Nov, decision due at the end of Wed 11 Nov: amber. With Wed 11 Nov a holiday the deadline
    // is the end of Thu 12 Nov and the next business day is Thursday too: still amber, not red on Thursday morning.
    expect(slaOf(r, t('2026-11-10T12:00:00Z'), new Set()).state).toBe('due_soon');
    const holidays = parseHolidays('2026-11-11');
    expect(slaOf(r, t('2026-11-12T08:00:00Z'), holidays).state).toBe('due_soon');
    expect(slaOf(r, t('2026-11-12T08:00:00Z'), new Set()).state).toBe('overdue');
  });

  it('the queue: overdue first, then by the next deadline, then oldest', () => {
    const at = t('2026-11-05T12:00:00Z');
    const queue = queueOrder(
      [
        report('NEW', '2026-11-05T11:00:00Z'),
        report('LATE', '2026-11-02T09:00:00Z'),
        report('SOON', '2026-11-03T13:00:00Z'),
        report('ACKED', '2026-11-02T08:00:00Z', { acknowledged_at: t('2026-11-02T09:00:00Z') }),
      ],
      at,
      new Set(),
    );
    expect(queue.map((r) => `${r.reference} ${slaOf(r, at, new Set()).state}`)).toEqual([
      'LATE overdue',
      'SOON due_soon',
      'NEW on_time',
      'ACKED on_time',
    ]);
  });
});
