import { describe, expect, it } from 'vitest';
import { dashboard } from '@media-site/db/admin';
import { testBackends, useTestDb } from '@media-site/db/testing';
import { runOpsCaptured } from './registry';

const NOW = Date.parse('2026-03-11T12:00:00Z');
const ALL = { members: true, payments: true, encode: true, reports: true, operations: true };

// `dashboard` is the console's dashboard on the terminal: the same db service, every section.
describe.each(testBackends())('ops dashboard on %s', (backend) => {
  const db = useTestDb(backend);
  const cli = (...argv: string[]) => runOpsCaptured(argv, { env: {}, knex: db.knex, now: () => NOW });

  it('prints the figures of the rows, and --json is the service answer', async () => {
    await db.knex('payment_attempts').insert({
      payment_token: 'cli-dash',
      kind: 'vod',
      username: 'someone',
      email: 'someone@example.com',
      amount: '24.50',
      currency_code: 840,
      status: 'approved',
      created_at: NOW - 3_600_000,
      updated_at: NOW - 3_600_000,
    });
    await db.knex('media_jobs').insert({
      content_type: 'vod',
      path: 'cli-vod',
      source_sig: 'sig',
      status: 'failed',
      attempts: 3,
      error: 'ffmpeg exited with code 1',
      created_at: NOW,
      updated_at: NOW,
    });
    const run = await cli('dashboard', '--days', '7');
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('dashboard: the 7 UTC day(s) 2026-03-05 to 2026-03-11');
    expect(run.out).toContain('revenue (currency 840): membership sign-ups 0.00, renewals 0.00, VODs 24.50');
    expect(run.out).toContain('encode queue: 0 waiting (0 to retry), 0 running, 1 failed');
    expect(run.out).toContain('vod cli-vod: ffmpeg exited with code 1');
    const json = await cli('dashboard', '--json');
    expect(JSON.parse(json.out)).toEqual(JSON.parse(JSON.stringify(await dashboard(db.knex, { days: 30, now: NOW, sections: ALL }))));
  });

  it('refuses --days outside 1..90 with the console rule (exit 2)', async () => {
    expect(await cli('dashboard', '--days', '91')).toMatchObject({ code: 2, err: 'days: at most 90' });
    expect(await cli('dashboard', '--days', '0')).toMatchObject({ code: 2, err: 'days: at least 1' });
    expect(await cli('dashboard', '--days', 'abc')).toMatchObject({ code: 2, err: 'days: a whole number from 1 to 90' });
  });
});
