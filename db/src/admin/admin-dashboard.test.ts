import { describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { dashboard, dashboardDays, dayStarts, LIST_POLL_WRITE_EVERY_MS, recordListPoll } from './index';
import { testBackends, useTestDb } from '../testing';

const at = (iso: string) => Date.parse(iso);
// A Wednesday at noon: the window of three days is Monday 9 to Wednesday 11 March.
const NOW = at('2026-03-11T12:00:00Z');
const ALL = { members: true, payments: true, encode: true, reports: true, operations: true };

async function seed(db: Knex): Promise<void> {
  const member = async (username: string, created: string) =>
    Number(
      (
        await db('members')
          .insert({ username, password_hash: 'x', email: `${username}@example.com`, created_at: at(created) })
          .returning('id')
      )[0]?.id ?? (await db('members').where({ username }).first('id')).id,
    );
  const m1 = await member('early', '2026-03-01T00:00:00Z');
  const m2 = await member('monday', '2026-03-09T10:00:00Z');
  await member('late_tuesday', '2026-03-10T23:59:59.999Z');
  const m3 = await member('wednesday', '2026-03-11T08:00:00Z');
  const sub = (member_id: number, kind: string, status: string, created: string, paidUntil: string | null) => ({
    member_id,
    kind,
    status,
    created_at: at(created),
    updated_at: at(created),
    paid_until: paidUntil === null ? null : at(paidUntil),
  });
  await db('subscriptions').insert([
    sub(m1, 'membership', 'active', '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z'),
    sub(m2, 'membership', 'expired', '2026-03-09T10:00:00Z', '2026-03-10T12:00:00Z'),
    sub(m3, 'membership', 'active', '2026-03-11T08:00:00Z', '2026-04-11T08:00:00Z'),
    sub(m3, 'vod', 'active', '2026-03-11T08:00:00Z', null),
    sub(m1, 'membership', 'expired', '2026-02-01T00:00:00Z', '2026-02-28T00:00:00Z'),
  ]);
  const event = (transaction_id: string, event_type: string, received: string) => ({
    transaction_id,
    event_type,
    payload: '{}',
    received_at: at(received),
  });
  await db('webhook_events').insert([
    event('t1', 'Cancellation', '2026-03-10T05:00:00Z'),
    event('t2', 'Chargeback', '2026-03-11T01:00:00Z'),
    event('t3', 'Refund', '2026-03-09T02:00:00Z'),
    { ...event('t4', 'RenewalSuccess', '2026-03-10T06:00:00Z'), subscription_id: 'sub-840', payload: '{"billedAmount":"12.50"}' },
    { ...event('t6', 'RenewalSuccess', '2026-03-11T06:00:00Z'), subscription_id: 'sub-840', payload: '{"amount":"12.50"}' },
    { ...event('t7', 'RenewalSuccess', '2026-03-11T07:00:00Z'), subscription_id: 'sub-978', payload: '{"billedAmount":"7.00"}' },
    event('t5', 'Cancellation', '2026-03-08T23:00:00Z'),
  ]);
  let token = 0;
  const payment = (kind: string, amount: string, currency_code: number, status: string, created: string) => ({
    payment_token: `tok${++token}`,
    kind,
    username: 'monday',
    email: 'monday@example.com',
    amount,
    currency_code,
    status,
    created_at: at(created),
    updated_at: at(created),
  });
  await db('payment_attempts').insert([
    { ...payment('membership', '9.99', 840, 'approved', '2026-03-09T10:00:00Z'), provider_subscription_id: 'sub-840' },
    payment('membership', '9.99', 840, 'approved', '2026-03-11T08:00:00Z'),
    payment('vod', '4.50', 840, 'approved', '2026-03-11T09:00:00Z'),
    payment('membership', '9.99', 840, 'declined', '2026-03-10T09:00:00Z'),
    payment('membership', '19.99', 840, 'approved', '2026-03-05T09:00:00Z'),
    { ...payment('membership', '7.00', 978, 'approved', '2026-03-10T09:00:00Z'), provider_subscription_id: 'sub-978' },
  ]);
  const job = (path: string, status: string, attempts: number, updated: string, error: string | null = null) => ({
    content_type: 'video',
    path,
    source_sig: 'sig',
    status,
    attempts,
    error,
    created_at: at('2026-03-01T00:00:00Z'),
    updated_at: at(updated),
  });
  await db('media_jobs').insert([
    job('q-new', 'queued', 0, '2026-03-11T00:00:00Z'),
    job('q-retry', 'queued', 2, '2026-03-11T00:00:00Z'),
    job('r-1', 'running', 1, '2026-03-11T00:00:00Z'),
    job('f-1', 'failed', 3, '2026-03-10T10:00:00Z', 'ffmpeg exited with code 1'),
    job('f-2', 'failed', 3, '2026-03-11T10:00:00Z', 'source file missing'),
    job('d-1', 'done', 1, '2026-03-11T00:00:00Z'),
  ]);
  const report = (reference: string, created: string, resolved: string | null = null) => ({
    reference,
    content_url: '/video/x',
    reason: 'other',
    details: 'details',
    created_at: at(created),
    resolved_at: resolved === null ? null : at(resolved),
    acknowledged_at: resolved === null ? null : at(resolved),
  });
  await db('content_reports').insert([
    report('R-FRESH', '2026-03-11T11:00:00Z'),
    report('R-DUE', '2026-03-09T13:00:00Z'),
    report('R-LATE', '2026-03-08T10:00:00Z'),
    report('R-DONE', '2026-03-01T10:00:00Z', '2026-03-02T10:00:00Z'),
  ]);
  const purge = (event: string, created: string, attempts: number, last_error: string | null, done: string | null) => ({
    event,
    prefixes: '["/video/x"]',
    created_at: at(created),
    attempts,
    next_attempt_at: at(created),
    last_error,
    done_at: done === null ? null : at(done),
  });
  await db('purge_outbox').insert([
    purge('takedown', '2026-03-01T00:00:00Z', 1, null, '2026-03-01T00:00:05Z'),
    purge('takedown', '2026-03-10T00:00:00Z', 3, 'the purge hook answered 502', null),
    purge('restore', '2026-03-11T00:00:00Z', 0, null, null),
  ]);
  await db('mail_outbox').insert({
    mail_key: 'k1',
    to_address: 'monday@example.com',
    template: 'renewal-receipt',
    subject: 'Receipt',
    text_body: 'x',
    html_body: 'x',
    status: 'failed',
    attempts: 8,
    created_at: at('2026-03-10T00:00:00Z'),
    next_attempt_at: at('2026-03-10T20:00:00Z'),
    last_error: '550 mailbox unavailable',
  });
}

describe.each(testBackends())('the console dashboard on %s', (backend) => {
  const db = useTestDb(backend);

  it('counts the seeded rows per UTC day, product and currency', async () => {
    await seed(db.knex);
    const d = await dashboard(db.knex, { days: 3, now: NOW, sections: ALL });
    expect(d.days).toEqual(['2026-03-09', '2026-03-10', '2026-03-11']);
    expect(d.members).toEqual([
      { day: '2026-03-09', active: 2, new: 1, cancelled: 0, chargedBack: 1 },
      { day: '2026-03-10', active: 1, new: 1, cancelled: 1, chargedBack: 0 },
      { day: '2026-03-11', active: 2, new: 1, cancelled: 0, chargedBack: 1 },
    ]);
    expect(d.revenue).toEqual([
      {
        currencyCode: 840,
        days: [
          { day: '2026-03-09', membership: 999, renewals: 0, vod: 0 },
          { day: '2026-03-10', membership: 0, renewals: 1250, vod: 0 },
          { day: '2026-03-11', membership: 999, renewals: 1250, vod: 450 },
        ],
        totalMembership: 1998,
        totalRenewals: 2500,
        totalVod: 450,
      },
      {
        currencyCode: 978,
        days: [
          { day: '2026-03-09', membership: 0, renewals: 0, vod: 0 },
          { day: '2026-03-10', membership: 700, renewals: 0, vod: 0 },
          { day: '2026-03-11', membership: 0, renewals: 700, vod: 0 },
        ],
        totalMembership: 700,
        totalRenewals: 700,
        totalVod: 0,
      },
    ]);
    expect(d.encode).toEqual({ queued: 2, running: 1, failed: 2, retrying: 1 });
    expect(d.reports).toEqual({ open: 3, dueToday: 1, overdue: 1 });
    expect(d.purge?.pending).toBe(2);
    expect(d.purge?.oldest).toMatchObject({ event: 'takedown', createdAt: at('2026-03-10T00:00:00Z'), attempts: 3 });
    expect(d.purge?.oldest?.lastError).toBe('the purge hook answered 502');
    expect(d.errors?.map((e) => [e.source, e.text])).toEqual([
      ['encode', 'source file missing'],
      ['mail', '550 mailbox unavailable'],
      ['encode', 'ffmpeg exited with code 1'],
      ['purge', 'the purge hook answered 502'],
    ]);
  });

  it('a longer window reaches the older rows; one day is today only', async () => {
    const week = await dashboard(db.knex, { days: 7, now: NOW, sections: ALL });
    expect(week.members?.find((m) => m.day === '2026-03-08')?.cancelled).toBe(1);
    expect(week.revenue?.[0]?.days.find((r) => r.day === '2026-03-05')?.membership).toBe(1999);
    const today = await dashboard(db.knex, { days: 1, now: NOW, sections: ALL });
    expect(today.members).toEqual([{ day: '2026-03-11', active: 2, new: 1, cancelled: 0, chargedBack: 1 }]);
  });

  it('reads only the sections asked for', async () => {
    const d = await dashboard(db.knex, {
      days: 3,
      now: NOW,
      sections: { members: true, payments: true, encode: false, reports: false, operations: false },
    });
    expect(d.members).toHaveLength(3);
    expect(d.revenue).toHaveLength(2);
    expect(d.encode).toBeUndefined();
    expect(d.reports).toBeUndefined();
    expect(d.purge).toBeUndefined();
    expect(d.errors).toBeUndefined();
  });

  it('records when each media service last fetched its lists (at most every 10 s per process) and flags one past its bound', async () => {
    const written = new Map<string, number>();
    const poll = (instance: string, list: 'revocations' | 'takedowns', now: number, maxAgeSeconds: number | null = 45) =>
      recordListPoll(db.knex, written, { instance, list, maxAgeSeconds, now });
    await poll('media-a:3002', 'takedowns', NOW - 120_000);
    await poll('media-a:3002', 'revocations', NOW - 120_000, 210);
    await poll('media-b:3002', 'takedowns', NOW - 20_000);
    // Within the write interval: not written again (the row keeps the first time).
    await poll('media-b:3002', 'takedowns', NOW - 20_000 + LIST_POLL_WRITE_EVERY_MS - 1);
    // Names outside host:port's characters are not stored; nor is an absurd bound.
    await poll('<script>', 'takedowns', NOW);
    await poll('x'.repeat(121), 'takedowns', NOW);
    await poll('media-c:3002', 'takedowns', NOW - 1000, 10 ** 9);
    const d = await dashboard(db.knex, { days: 1, now: NOW, sections: ALL });
    expect(d.mediaLists).toEqual([
      { instance: 'media-a:3002', list: 'revocations', fetchedAt: NOW - 120_000, ageSeconds: 120, maxAgeSeconds: 210, late: false },
      { instance: 'media-a:3002', list: 'takedowns', fetchedAt: NOW - 120_000, ageSeconds: 120, maxAgeSeconds: 45, late: true },
      { instance: 'media-b:3002', list: 'takedowns', fetchedAt: NOW - 20_000, ageSeconds: 20, maxAgeSeconds: 45, late: false },
      { instance: 'media-c:3002', list: 'takedowns', fetchedAt: NOW - 1000, ageSeconds: 1, maxAgeSeconds: null, late: false },
    ]);
    // Past the interval the same process writes again.
    await poll('media-b:3002', 'takedowns', NOW);
    const again = await dashboard(db.knex, { days: 1, now: NOW, sections: ALL });
    expect(again.mediaLists?.find((p) => p.instance === 'media-b:3002')?.ageSeconds).toBe(0);
    const support = await dashboard(db.knex, { days: 1, now: NOW, sections: { ...ALL, operations: false } });
    expect(support.mediaLists).toBeUndefined();
  });

  it('refuses a window outside 1..90 days', async () => {
    for (const days of [0, 91, 1.5, Number.NaN])
      await expect(dashboard(db.knex, { days, now: NOW, sections: ALL })).rejects.toThrow('days: a whole number from 1 to 90');
    expect(dayStarts(90, NOW)).toHaveLength(90);
    expect(dashboardDays(undefined)).toBe(30);
    expect(dashboardDays('1')).toBe(1);
    expect(dashboardDays('90')).toBe(90);
    expect(() => dashboardDays('0')).toThrow('days: at least 1');
    expect(() => dashboardDays('91')).toThrow('days: at most 90');
    for (const text of ['', '-1', '1.5', 'abc', ' 7', '007', '9'.repeat(10_000)])
      expect(() => dashboardDays(text), text).toThrow('days: a whole number');
  });
});
