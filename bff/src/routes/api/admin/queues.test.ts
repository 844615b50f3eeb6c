import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { consoleSession } from '../../../test/console-session';

// The Queues screen's API: who may, what a bad queue or job number answers, and the verbs' answers.
// The rules themselves are db/src/queues's (tested there on both engines); one engine here.
describe.each(testBackends().slice(0, 1))('/api/admin/queues (%s)', (backend) => {
  let kit: AccountKit;
  const cookies = new Map<string, string>();
  const get = (path: string, role: string) =>
    kit.request
      .get(path)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Cookie', cookies.get(role) ?? '');
  const post = (path: string, role: string) =>
    kit.request
      .post(path)
      .set('Origin', ORIGIN)
      .set('Cookie', cookies.get(role) ?? '')
      .send({});

  beforeAll(async () => {
    kit = await startAccountKit(backend, { RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000' });
    for (const [name, role] of [
      ['queue_mod', 'moderator'],
      ['queue_help', 'support'],
    ] as const)
      cookies.set(role, await consoleSession(kit, name, role));
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('a moderator sees the four queues and retries a failed job; support may not; no session is 401', async () => {
    const [id] = await kit.db.knex('media_jobs').insert({
      content_type: 'video',
      path: 'queue-clip',
      source_sig: 'sig',
      status: 'failed',
      attempts: 3,
      error: 'ffmpeg exited with code 1',
      created_at: 1,
      updated_at: 1,
    });
    const page = await get('/api/admin/queues', 'moderator');
    expect(page.status).toBe(200);
    expect(page.body.queues.map((q: { name: string }) => q.name)).toEqual(['encode', 'ingest', 'mail', 'purge']);
    expect(page.body.queues[0].failed[0]).toMatchObject({ id, what: 'video/queue-clip', reason: 'ffmpeg exited with code 1' });
    expect((await post(`/api/admin/queues/encode/jobs/${id}/retry`, 'moderator')).body).toEqual({ queue: 'encode', changed: 1 });
    expect((await get('/api/admin/queues', 'support')).status).toBe(403);
    expect((await post('/api/admin/queues/mail/pause', 'support')).status).toBe(403);
    expect((await get('/api/admin/queues', 'none')).status).toBe(401);
  });

  it('a bad queue or job number is a 400 with a message; a job that cannot be cancelled a 409', async () => {
    const smtp = await post('/api/admin/queues/smtp/pause', 'moderator');
    expect(smtp.status).toBe(400);
    expect(smtp.body.error.message).toBe('not a queue: encode, ingest, mail or purge');
    const job = await post('/api/admin/queues/encode/jobs/1e3/cancel', 'moderator');
    expect([job.status, job.body.error.message]).toEqual([400, 'not a job number']);
    expect((await post('/api/admin/queues/encode/jobs/9999999999/retry', 'moderator')).status).toBe(400);
    const purge = await post('/api/admin/queues/purge/pause', 'moderator');
    expect([purge.status, purge.body.error.message]).toEqual([409, expect.stringContaining('never paused')]);
    expect((await post('/api/admin/queues/encode/jobs/424242/cancel', 'moderator')).status).toBe(404);
  });
});
