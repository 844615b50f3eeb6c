import { describe, expect, it } from 'vitest';
import { testBackends, useTestDb } from '@media-site/db/testing';
import { runOpsCaptured } from './registry';

const NOW = Date.parse('2026-03-11T12:00:00Z');

// `queues` and `queue <verb>` are the console's Queues screen on the terminal, `maintenance` its switch: the same db services.
describe.each(testBackends())('ops queues on %s', (backend) => {
  const db = useTestDb(backend);
  const cli = (...argv: string[]) => runOpsCaptured(argv, { env: { USER: 'ops1' }, knex: db.knex, now: () => NOW });

  it('lists the queues, retries a failed job, pauses and resumes, each audited as cli:<user>', async () => {
    const [id] = await db.knex('media_jobs').insert({
      content_type: 'video',
      path: 'cli-video',
      source_sig: 'sig',
      status: 'failed',
      attempts: 3,
      error: 'ffmpeg exited with code 1',
      created_at: NOW,
      updated_at: NOW,
    });
    const list = await cli('queues');
    expect(list.code, list.err).toBe(0);
    expect(list.out).toContain('Encode (encode)\n  0 running, 0 queued, 0 waiting to retry, 1 failed, 0 done');
    expect(list.out).toMatch(/failed\s+video\/cli-video\s+since 2026-03-11T12:00:00Z\s+attempt 3\s+ffmpeg exited with code 1/);
    expect(JSON.parse((await cli('queues', '--json')).out)).toHaveLength(4);

    expect(await cli('queue', 'retry', 'encode', String(id))).toMatchObject({ code: 0, out: `encode: job ${id} queued again` });
    expect(await cli('queue', 'retry', 'encode', 'all')).toMatchObject({ code: 0, out: 'encode: 0 failed jobs queued again' });
    expect(await cli('queue', 'pause', 'mail')).toMatchObject({ code: 0, out: 'mail: paused' });
    expect((await cli('queues')).out).toContain('Mail (mail): PAUSED by cli:ops1');
    expect(await cli('queue', 'resume', 'mail')).toMatchObject({ code: 0, out: 'mail: running' });
    const audit = await db.knex('admin_audit').orderBy('id').select('actor', 'action', 'target');
    expect(audit).toEqual([
      { actor: 'cli:ops1', action: 'queue.retry', target: `encode:${id}` },
      { actor: 'cli:ops1', action: 'queue.retry-all', target: 'encode:all' },
      { actor: 'cli:ops1', action: 'queue.pause', target: 'mail' },
      { actor: 'cli:ops1', action: 'queue.resume', target: 'mail' },
    ]);
  });

  it('says what is wrong with a bad queue, job or verb (exit 2), and why a job cannot be cancelled (exit 1)', async () => {
    expect(await cli('queue', 'retry', 'smtp', '1')).toMatchObject({
      code: 2,
      err: 'the queue must be one of encode, ingest, mail, purge',
    });
    expect(await cli('queue', 'cancel', 'encode', 'all')).toMatchObject({ code: 2, err: 'the job: a job number from `ops queues`' });
    expect(await cli('queue', 'drop', 'encode')).toMatchObject({ code: 2, err: 'queue: retry, cancel, pause or resume' });
    expect(await cli('queue', 'pause', 'purge')).toMatchObject({ code: 1, err: expect.stringContaining('never paused') });
    expect(await cli('queue', 'cancel', 'encode', '424242')).toMatchObject({ code: 1, err: 'Encode queue: no job 424242' });
    expect(await cli('queues', '--limit', '0')).toMatchObject({ code: 2 });
  });

  it('maintenance on with a message, the state, off; bad words are refused (exit 2)', async () => {
    expect(await cli('maintenance')).toMatchObject({ code: 0, out: 'maintenance: off' });
    expect(await cli('maintenance', 'on', '--message', 'Back soon.')).toMatchObject({
      code: 0,
      out: 'maintenance: ON since 2026-03-11T12:00:00Z (by cli:ops1): Back soon.',
    });
    expect(await cli('maintenance', 'off', '--message', 'x')).toMatchObject({ code: 2, err: '--message goes with maintenance on' });
    expect(await cli('maintenance', 'on', '--message', 'a\tb')).toMatchObject({
      code: 2,
      err: 'message: one line of text, no control characters',
    });
    expect(await cli('maintenance', 'maybe')).toMatchObject({ code: 2 });
    expect(await cli('maintenance', 'off')).toMatchObject({ code: 0, out: 'maintenance: off' });
    const audit = await db.knex('admin_audit').where('action', 'like', 'site.%').orderBy('id').select('action');
    expect(audit.map((a) => a.action)).toEqual(['site.maintenance.on', 'site.maintenance.off']);
  });
});
