import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  claimNext,
  enqueue,
  failJob,
  finishJob,
  jobById,
  jobCounts,
  OUTSIDE_RETRY_MAX_MS,
  recoverStale,
  crashDelay,
  releaseJob,
  renewLease,
  retryDelay,
} from '@media-site/db/encode';
import { claimIsDead, EncodeWorker, type WorkerEvent } from './worker';
import { createKnex } from '@media-site/db';
import { createTestDb, testBackends, useTestDb } from '@media-site/db/testing';
import { pauseQueue } from '@media-site/db/queues';

const LEASE = 60_000;
const never = () => false;

describe.each(testBackends())('encode queue on %s', (backend) => {
  const db = useTestDb(backend);
  beforeEach(async () => {
    await db.knex('media_jobs').del();
  });

  const add = (path: string, sourceSig = 's1', now = 1000) => enqueue(db.knex, { type: 'video', path, sourceSig }, now);
  const claim = (name: string, slots = 1, now = 2000, ids?: number[]) =>
    claimNext(db.knex, { claim: name, slots, leaseMs: LEASE, now, ids });

  it('queues once per source, and again when the original changes', async () => {
    const first = await add('a');
    expect(first.queued).toBe(true);
    expect(await add('a')).toEqual({ id: first.id, queued: false });
    const job = await claim('w1');
    await finishJob(db.knex, job!.id, 'w1', 's1', '{}', 3000);
    expect(await add('a')).toEqual({ id: first.id, queued: false });
    expect(await enqueue(db.knex, { type: 'video', path: 'a', sourceSig: 's1', again: true }, 4000)).toEqual({
      id: first.id,
      queued: true,
    });
    const again = await claim('w1');
    await finishJob(db.knex, again!.id, 'w1', 's1', '{}', 5000);
    expect(await add('a', 's2')).toEqual({ id: first.id, queued: true });
    expect(await jobById(db.knex, first.id)).toMatchObject({ status: 'queued', sourceSig: 's2', attempts: 0, manifest: '{}' });
    expect(await enqueue(db.knex, { type: 'vod', path: 'a', sourceSig: 's1' }, 6000)).toMatchObject({ queued: true });
  });

  it('claims by compare-and-set: racing workers never share a job or exceed the slots', async () => {
    for (const path of ['a', 'b', 'c', 'd', 'e', 'f']) await add(path);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claim(`w${i}`, 3)));
    const won = claims.filter((j) => j !== null);
    expect(won).toHaveLength(3);
    expect(new Set(won.map((j) => j.id)).size).toBe(3);
    expect(new Set(won.map((j) => j.slot))).toEqual(new Set([0, 1, 2]));
    expect(await claim('late', 3)).toBeNull();
    // A worker with a higher limit may use the slots above; the shared ones stay taken.
    expect((await claim('bigger', 4))?.slot).toBe(3);
    expect(await jobCounts(db.knex)).toEqual({ queued: 2, running: 4, done: 0, failed: 0 });
    const first = won[0]!;
    await finishJob(db.knex, first.id, first.claim!, 's1', '{}', 3000);
    expect((await claim('next', 3))?.slot).toBe(first.slot);
  });

  it('claims only the given jobs, oldest first', async () => {
    const a = await add('a');
    const b = await add('b');
    expect((await claim('w', 2, 2000, [b.id]))?.id).toBe(b.id);
    expect(await claim('w', 2, 2000, [b.id])).toBeNull();
    expect((await claim('w', 2))?.id).toBe(a.id);
  });

  it('renews a lease only for the holder; an expired lease puts the job back, until attempts run out', async () => {
    await add('a');
    const job = (await claim('w1'))!;
    expect(await renewLease(db.knex, job.id, 'w1', LEASE, 0.5, 3000)).toBe(true);
    expect(await jobById(db.knex, job.id)).toMatchObject({ progress: 0.5, leaseUntil: 3000 + LEASE });
    expect(await renewLease(db.knex, job.id, 'someone-else', LEASE, 0.9, 3000)).toBe(false);
    expect(await recoverStale(db.knex, 3000 + LEASE - 1, never, 2)).toBe(0);
    expect(await recoverStale(db.knex, 3000 + LEASE + 1, never, 2)).toBe(1);
    expect(await jobById(db.knex, job.id)).toMatchObject({
      status: 'queued',
      slot: null,
      claim: null,
      attempts: 1,
      error: 'the worker stopped during attempt 1',
    });
    // The old holder's late writes change nothing.
    expect(await renewLease(db.knex, job.id, 'w1', LEASE, 0.9, 3000)).toBe(false);
    expect(await finishJob(db.knex, job.id, 'w1', 's1', '{}', 3000)).toBe('lost');
    await claim('w2', 1, 200_000);
    expect(await recoverStale(db.knex, 300_000, never, 2)).toBe(1);
    expect(await jobById(db.knex, job.id)).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('recovers at once a claim of a process on this host that is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const deadClaim = `${hostname()}:${gone}:abc`;
    expect(claimIsDead(deadClaim)).toBe(true);
    expect(claimIsDead(`${hostname()}:${process.ppid}:abc`)).toBe(false);
    expect(claimIsDead(`another-host:${gone}:abc`)).toBe(false);
    await add('a');
    await claim(deadClaim);
    expect(await recoverStale(db.knex, 2001, claimIsDead, 3)).toBe(1);
    expect((await claim(deadClaim, 1, 2001))?.attempts).toBe(2);
    // A second crash of the same job waits the retry delay (doubling after): no loop of crashes.
    expect(await recoverStale(db.knex, 2001, claimIsDead, 3, 30_000)).toBe(1);
    expect(await claim('w2', 1, 2001 + 30_000 - 1)).toBeNull();
    expect((await claim('w2', 1, 2001 + 30_000))?.attempts).toBe(3);
    expect([1, 2, 3, 4, 40].map((n) => crashDelay(n, 30_000))).toEqual([0, 30_000, 60_000, 120_000, 6 * 3600_000]);
  });

  it('retries a failure outside the file (bucket, database, disk) without end, the wait doubling up to six hours', async () => {
    const { id } = await add('a');
    const options = { maxAttempts: 2, retryDelayMs: 30_000, outside: true };
    let now = 3000;
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      await claim('w1', 1, now);
      expect(await failJob(db.knex, id, 'w1', 'bucket unreachable', now, options)).toBe('retry');
      const job = await jobById(db.knex, id);
      expect(job).toMatchObject({ status: 'queued', attempts: attempt, error: 'bucket unreachable' });
      waits.push(job!.runAfter - now);
      now = job!.runAfter;
    }
    expect(waits.slice(0, 4)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(Math.max(...waits)).toBe(OUTSIDE_RETRY_MAX_MS);
    expect(retryDelay(40, options)).toBe(OUTSIDE_RETRY_MAX_MS);
    // The file's own failures still count: the same job fails for good on its next ffmpeg error.
    await claim('w1', 1, now);
    expect(await failJob(db.knex, id, 'w1', 'ffmpeg exited with 1', now, { maxAttempts: 2, retryDelayMs: 30_000 })).toBe('failed');
  });

  it('finishes with the manifest, or queues again when the original was replaced meanwhile', async () => {
    const { id } = await add('a');
    await claim('w1');
    await add('a', 's2');
    expect(await finishJob(db.knex, id, 'w1', 's1', '{"v":1}', 3000)).toBe('requeued');
    expect(await jobById(db.knex, id)).toMatchObject({ status: 'queued', sourceSig: 's2', manifest: '{"v":1}', slot: null });
    await claim('w1', 1, 4000);
    expect(await finishJob(db.knex, id, 'w1', 's2', '{"v":2}', 5000)).toBe('done');
    expect(await jobById(db.knex, id)).toMatchObject({ status: 'done', progress: 1, manifest: '{"v":2}', finishedAt: 5000 });
  });

  it('retries a failure after a delay, fails for good after the last attempt, and at once when permanent', async () => {
    const { id } = await add('a');
    const options = { maxAttempts: 2, retryDelayMs: 10_000 };
    await claim('w1');
    expect(await failJob(db.knex, id, 'w1', 'boom', 3000, options)).toBe('retry');
    expect(await jobById(db.knex, id)).toMatchObject({ status: 'queued', runAfter: 13_000, error: 'boom' });
    expect(await claim('w1', 1, 12_999)).toBeNull();
    await claim('w1', 1, 13_000);
    expect(await failJob(db.knex, id, 'w1', 'boom again', 14_000, options)).toBe('failed');
    expect(await jobById(db.knex, id)).toMatchObject({ status: 'failed', attempts: 2, error: 'boom again' });
    const other = await add('b');
    await claim('w1', 1, 20_000);
    expect(await failJob(db.knex, other.id, 'w1', 'x'.repeat(900), 21_000, { ...options, permanent: true })).toBe('failed');
    expect((await jobById(db.knex, other.id))?.error).toHaveLength(500);
  });

  it('a worker that stops hands its job back without counting the attempt', async () => {
    const { id } = await add('a');
    await claim('w1');
    await releaseJob(db.knex, id, 'w1', 3000);
    expect(await jobById(db.knex, id)).toMatchObject({ status: 'queued', attempts: 0, slot: null, claim: null });
  });
});

describe('a one-off worker while the encode queue is paused', () => {
  it('returns at once and leaves the jobs queued (it would otherwise wait for ever)', async () => {
    const db = await createTestDb('sqlite');
    try {
      const { id } = await enqueue(db.knex, { type: 'video', path: 'held', sourceSig: 's' }, 1000);
      await pauseQueue(db.knex, 'encode', true, { actor: 'tester', now: 1000 });
      const worker = new EncodeWorker({
        knex: db.knex,
        mediaRoot: '/nonexistent',
        settings: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe', preset: 'veryfast', threads: 1, nice: 10 },
        concurrency: 1,
        leaseMs: LEASE,
        maxAttempts: 3,
        pollMs: 10,
      });
      await worker.run();
      expect(await jobById(db.knex, id)).toMatchObject({ status: 'queued', attempts: 0 });
    } finally {
      await db.destroy();
    }
  });
});

describe('a worker when the queue cannot be read', () => {
  it('keeps trying in --watch mode, and fails a one-off run', async () => {
    // No migrations: every queue query fails, as with the database down.
    const knex = createKnex('sqlite::memory:');
    try {
      const events: WorkerEvent[] = [];
      const options = {
        knex,
        mediaRoot: '/nonexistent',
        settings: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe', preset: 'veryfast', threads: 1, nice: 10 },
        concurrency: 1,
        leaseMs: LEASE,
        maxAttempts: 3,
        pollMs: 10,
      };
      const watching = new EncodeWorker({ ...options, watch: true, onEvent: (e) => events.push(e) });
      const running = watching.run();
      while (events.length < 3) await new Promise((r) => setTimeout(r, 10));
      await watching.stop();
      await running;
      expect(events[0]).toEqual({ kind: 'error', error: expect.stringMatching(/no such table: media_jobs/) });
      await expect(new EncodeWorker(options).run()).rejects.toThrow(/no such table/);
    } finally {
      await knex.destroy();
    }
  });
});
