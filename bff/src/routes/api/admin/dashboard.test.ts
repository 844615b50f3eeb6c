import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordBackupRun } from '@media-site/db/backup';
import { testBackends } from '@media-site/db/testing';
import { startAccountKit, type AccountKit } from '../../../test/account-kit';
import { consoleSession } from '../../../test/console-session';

const DAY = 86_400_000;

describe.each(testBackends())('GET /api/admin/dashboard (%s)', (backend) => {
  let kit: AccountKit;
  const cookies = new Map<string, string>();
  const get = (path: string, cookie = '') => kit.request.get(path).set('Sec-Fetch-Site', 'same-origin').set('Cookie', cookie);

  beforeAll(async () => {
    kit = await startAccountKit(backend, { RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000' });
    for (const [name, role] of [
      ['dash_owner', 'owner'],
      ['dash_mod', 'moderator'],
      ['dash_help', 'support'],
    ] as const)
      cookies.set(role, await consoleSession(kit, name, role));
    const now = kit.deps.now();
    const [id] = await kit.db
      .knex('members')
      .insert({ username: 'dash_member', password_hash: 'x', email: 'd@example.com', created_at: now - 1000 });
    const memberId = Number(id ?? (await kit.db.knex('members').where({ username: 'dash_member' }).first('id')).id);
    await kit.db.knex('subscriptions').insert({
      member_id: memberId,
      kind: 'membership',
      status: 'active',
      paid_until: now + 30 * DAY,
      created_at: now - 1000,
      updated_at: now - 1000,
    });
    await kit.db.knex('payment_attempts').insert({
      payment_token: 'dash-token',
      kind: 'membership',
      username: 'dash_member',
      email: 'd@example.com',
      amount: '12.34',
      currency_code: 840,
      status: 'approved',
      created_at: now - 1000,
      updated_at: now - 1000,
    });
    await kit.db.knex('media_jobs').insert({
      content_type: 'video',
      path: 'dash-clip',
      source_sig: 'sig',
      status: 'failed',
      attempts: 3,
      error: 'ffmpeg exited with code 1',
      created_at: now,
      updated_at: now,
    });
  });
  afterAll(() => kit?.close());

  it('the owner sees every section, with the figures of the rows', async () => {
    const res = await get('/api/admin/dashboard?days=7', cookies.get('owner'));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.days).toHaveLength(7);
    expect(res.body.sections).toEqual({ members: true, payments: true, encode: true, reports: true, operations: true });
    expect(res.body.members.at(-1)).toMatchObject({ active: 1, new: 1, cancelled: 0, chargedBack: 0 });
    expect(res.body.revenue).toEqual([expect.objectContaining({ currencyCode: 840, totalMembership: 1234, totalVod: 0 })]);
    expect(res.body.encode).toEqual({ queued: 0, running: 0, failed: 1, retrying: 0 });
    expect(res.body.reports).toEqual({ open: 0, dueToday: 0, overdue: 0 });
    expect(res.body.purge).toEqual({ pending: 0, oldest: null });
    expect(res.body.errors).toEqual([expect.objectContaining({ source: 'encode', text: 'ffmpeg exited with code 1' })]);
    expect((await get('/api/admin/dashboard', cookies.get('owner'))).body.days).toHaveLength(30);
  });

  it('support sees members and payments only; a moderator the encode queue and reports only', async () => {
    const support = (await get('/api/admin/dashboard?days=3', cookies.get('support'))).body;
    expect(Object.keys(support).sort()).toEqual(['days', 'members', 'now', 'revenue', 'sections']);
    const moderator = (await get('/api/admin/dashboard?days=3', cookies.get('moderator'))).body;
    expect(Object.keys(moderator).sort()).toEqual(['days', 'encode', 'now', 'reports', 'sections']);
  });

  it('days outside 1..90, not a whole number, or an unknown parameter: 400 with a message', async () => {
    const owner = cookies.get('owner');
    for (const [query, message] of [
      ['days=0', 'days: at least 1'],
      ['days=91', 'days: at most 90'],
      ['days=1.5', 'days: a whole number from 1 to 90'],
      ['days=abc', 'days: a whole number from 1 to 90'],
      ['days=-1', 'days: a whole number from 1 to 90'],
      ['days=', 'days: a whole number from 1 to 90'],
      ['days=7&days=8', 'days: give one whole number from 1 to 90'],
      [`days=${'9'.repeat(400)}`, 'days: a whole number from 1 to 90'],
      ['days=7&sort=x', ''],
    ]) {
      const res = await get(`/api/admin/dashboard?${query}`, owner);
      expect(res.status, query).toBe(400);
      if (message) expect(res.body.error.message, query).toContain(message);
    }
    expect((await get('/api/admin/dashboard?days=90', owner)).status).toBe(200);
    expect((await get('/api/admin/dashboard?days=1', owner)).status).toBe(200);
  });

  it('shows when each media service last fetched its lists: the service names itself on the poll', async () => {
    const owner = cookies.get('owner');
    expect((await get('/api/admin/dashboard?days=1', owner)).body.mediaLists).toEqual([]);
    // A media service's polls (media-service/src/access/polled-list.ts); a 304 counts as a fetch too.
    const poll = (path: string, instance: string, etag = '') =>
      kit.request.get(path).set('X-Media-Instance', instance).set('X-Media-List-Max-Age', '45').set('If-None-Match', etag);
    const first = await poll('/internal/media-takedowns', 'media-1:3002');
    expect(first.status).toBe(200);
    expect((await poll('/internal/media-takedowns', 'media-1:3002', first.headers.etag)).status).toBe(304);
    expect((await poll('/internal/media-revocations', 'media-1:3002')).status).toBe(200);
    // No name, or not a host:port name: answered as before, nothing recorded.
    expect((await kit.request.get('/internal/media-takedowns')).status).toBe(200);
    expect((await poll('/internal/media-takedowns', 'evil name; drop')).status).toBe(200);
    await expect
      .poll(async () => (await get('/api/admin/dashboard?days=1', owner)).body.mediaLists?.map((l: { list: string }) => l.list).sort())
      .toEqual(['revocations', 'takedowns']);
    const lists = ((await get('/api/admin/dashboard?days=1', owner)).body.mediaLists as Array<{ list: string }>).sort((a, b) =>
      a.list.localeCompare(b.list),
    );
    expect(lists).toEqual([
      expect.objectContaining({ instance: 'media-1:3002', list: 'revocations', maxAgeSeconds: 45, late: false }),
      expect.objectContaining({ instance: 'media-1:3002', list: 'takedowns', maxAgeSeconds: 45, late: false }),
    ]);
    // Support sees members and revenue, not the services.
    expect((await get('/api/admin/dashboard?days=1', cookies.get('support'))).body.mediaLists).toBeUndefined();
  });

  it("shows the last good backup's age to the owner, late when none is newer than a day", async () => {
    const owner = cookies.get('owner');
    expect((await get('/api/admin/dashboard?days=1', owner)).body.backup).toEqual({ lastOk: null, lastFailed: null, late: true });
    const now = kit.deps.now();
    const run = { host: 'backup-1', startedAt: now - 3_600_000 };
    await recordBackupRun(kit.db.knex, {
      ...run,
      status: 'ok',
      setId: 'a-set',
      finishedAt: now - 3_000_000,
      rows: 10,
      files: 3,
      bytes: 300,
      copiedBytes: 3,
    });
    await recordBackupRun(kit.db.knex, { ...run, status: 'failed', finishedAt: now - 60_000, error: 'disk full' });
    expect((await get('/api/admin/dashboard?days=1', owner)).body.backup).toEqual({
      lastOk: { setId: 'a-set', finishedAt: now - 3_000_000, files: 3, bytes: 300 },
      lastFailed: { finishedAt: now - 60_000, error: 'disk full' },
      late: false,
    });
    expect((await get('/api/admin/dashboard?days=1', cookies.get('support'))).body.backup).toBeUndefined();
  });

  it('no console session is a 401; a cross-site request a 403', async () => {
    expect((await get('/api/admin/dashboard')).status).toBe(401);
    expect((await get('/api/admin/dashboard', cookies.get('owner')).set('Sec-Fetch-Site', 'cross-site')).status).toBe(403);
  });
});
