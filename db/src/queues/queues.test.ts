import { beforeEach, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { testBackends, useTestDb } from '../testing';
import { claimNext, enqueue, failJob } from '../encode/queue';
import { claimIngest } from '../admin/ingests';
import { claimDueMails, enqueueMail } from '../mail/outbox';
import { enqueuePurge } from '../content/purges';
import { cancelQueueJob, pauseQueue, queueView, queueViews, retryQueueJob } from './index';

const NOW = Date.parse('2026-03-11T12:00:00Z');
const by = { actor: 'owner1', address: '203.0.113.9', now: NOW };
const mailOf = (key: string, to = 'member@example.com') => ({
  key,
  to,
  template: 'receipt',
  subject: 'Your receipt',
  text: 't',
  html: '<p>t</p>',
});

async function audit(db: Knex): Promise<string[]> {
  const rows: { action: string; target: string }[] = await db('admin_audit').orderBy('id').select('action', 'target');
  return rows.map((r) => `${r.action} ${r.target}`);
}

describe.each(testBackends())('the queue screen on %s', (backend) => {
  const db = useTestDb(backend);
  beforeEach(async () => {
    for (const table of ['media_jobs', 'ingest_runs', 'mail_outbox', 'purge_outbox', 'switches', 'admin_audit'])
      await db.knex(table).delete();
  });

  it('shows each queue by state: running with its worker and progress, waiting, failed with the reason', async () => {
    const k = db.knex;
    for (const path of ['a', 'b', 'c']) await enqueue(k, { type: 'video', path, sourceSig: 's' }, NOW - 1000);
    const a = await claimNext(k, { claim: 'host1:42:xyz', slots: 2, leaseMs: 60_000, now: NOW });
    const b = await claimNext(k, { claim: 'host1:42:xyz', slots: 2, leaseMs: 60_000, now: NOW });
    await failJob(k, b!.id, 'host1:42:xyz', 'ffmpeg: moov atom not found', NOW, { maxAttempts: 3, retryDelayMs: 1000, permanent: true });
    await enqueueMail(k, mailOf('receipt:1'), NOW);
    await enqueueMail(k, mailOf('receipt:2', 'a\r\nBcc: x@example.com'), NOW);
    await enqueuePurge(k, 'takedown', ['videos/a/'], NOW);

    const [encode, ingest, mail, purge] = await queueViews(k, NOW);
    expect(encode!.counts).toEqual({ queued: 1, retrying: 0, running: 1, failed: 1, done: 0 });
    expect(encode!.running).toEqual([
      expect.objectContaining({ id: a!.id, what: 'video/a', state: 'running', worker: 'host1:42', progress: 0, attempts: 1 }),
    ]);
    expect(encode!.failed).toEqual([expect.objectContaining({ what: 'video/b', state: 'failed', reason: 'ffmpeg: moov atom not found' })]);
    expect(encode!.waiting.map((j) => j.what)).toEqual(['video/c']);
    expect(ingest!.counts).toEqual({ queued: 0, retrying: 0, running: 0, failed: 0, done: 0 });
    expect(mail!.counts).toMatchObject({ queued: 1, failed: 1 });
    // A mail is named by template and key, never by its address.
    expect(JSON.stringify(mail)).not.toContain('example.com');
    expect(purge!.waiting).toEqual([expect.objectContaining({ what: 'takedown videos/a/', state: 'queued' })]);
    expect(purge!.can).toEqual({ cancel: false, pause: false });
  });

  it('retries a failed job and all failed ones, and says why it cannot retry a running or unknown one', async () => {
    const k = db.knex;
    for (const path of ['a', 'b']) await enqueue(k, { type: 'video', path, sourceSig: 's' }, NOW);
    for (let i = 0; i < 2; i++) {
      const job = await claimNext(k, { claim: 'h:1:r', slots: 2, leaseMs: 60_000, now: NOW });
      await failJob(k, job!.id, 'h:1:r', 'worn out', NOW, { maxAttempts: 1, retryDelayMs: 1000 });
    }
    const failed = (await queueView(k, 'encode', NOW)).failed;
    expect(await retryQueueJob(k, 'encode', failed[0]!.id, by)).toBe(1);
    expect((await queueView(k, 'encode', NOW)).counts).toMatchObject({ queued: 1, failed: 1 });
    expect(await retryQueueJob(k, 'encode', 'all', by)).toBe(1);
    const running = await claimNext(k, { claim: 'h:1:r', slots: 2, leaseMs: 60_000, now: NOW });
    await expect(retryQueueJob(k, 'encode', running!.id, by)).rejects.toThrow(/is running: it finishes/);
    await expect(retryQueueJob(k, 'encode', 999, by)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await audit(k)).toEqual([`queue.retry encode:${failed[0]!.id}`, 'queue.retry-all encode:all']);
  });

  it('cancels a job that has not started (it can be retried), never a running one or a purge', async () => {
    const k = db.knex;
    const { id } = await enqueue(k, { type: 'vod', path: 'v1', sourceSig: 's' }, NOW);
    expect(await cancelQueueJob(k, 'encode', id, by)).toBe(1);
    expect((await queueView(k, 'encode', NOW)).failed).toEqual([expect.objectContaining({ id, reason: 'cancelled by owner1' })]);
    await expect(cancelQueueJob(k, 'encode', id, by)).rejects.toThrow(/job \d+ is failed, so it cannot be cancelled/);
    expect(await retryQueueJob(k, 'encode', id, by)).toBe(1);
    await enqueuePurge(k, 'takedown', ['videos/x/'], NOW);
    const [purge] = (await queueView(k, 'purge', NOW)).waiting;
    await expect(cancelQueueJob(k, 'purge', purge!.id, by)).rejects.toThrow(/never cancelled/);
    await expect(pauseQueue(k, 'purge', true, by)).rejects.toThrow(/never paused/);
    await enqueueMail(k, mailOf('receipt:9'), NOW);
    const [mail] = (await queueView(k, 'mail', NOW)).waiting;
    expect(await cancelQueueJob(k, 'mail', mail!.id, by)).toBe(1);
    expect(await claimDueMails(k, NOW, 10, 60_000)).toEqual([]);
  });

  it('a paused queue takes no job until it is resumed; a refused address is never retried', async () => {
    const k = db.knex;
    await enqueue(k, { type: 'video', path: 'p', sourceSig: 's' }, NOW);
    await enqueueMail(k, mailOf('receipt:3'), NOW);
    await k('ingest_runs').insert({ folder: 'f1', active_folder: 'f1', status: 'queued', requested_by: 'owner1', created_at: NOW });
    for (const q of ['encode', 'ingest', 'mail'] as const) expect(await pauseQueue(k, q, true, by)).toBe(1);
    expect(await pauseQueue(k, 'mail', true, by)).toBe(0);
    expect((await queueView(k, 'encode', NOW)).paused).toEqual({ by: 'owner1', at: NOW });
    expect(await claimNext(k, { claim: 'h:1:r', slots: 1, leaseMs: 60_000, now: NOW })).toBeNull();
    expect(await claimIngest(k, NOW)).toBeUndefined();
    expect(await claimDueMails(k, NOW, 10, 60_000)).toEqual([]);
    for (const q of ['encode', 'ingest', 'mail'] as const) await pauseQueue(k, q, false, by);
    expect(await claimNext(k, { claim: 'h:1:r', slots: 1, leaseMs: 60_000, now: NOW })).not.toBeNull();
    expect(await claimIngest(k, NOW)).toMatchObject({ folder: 'f1' });
    expect(await claimDueMails(k, NOW, 10, 60_000)).toHaveLength(1);

    await enqueueMail(k, mailOf('receipt:4', 'a\nb@example.com'), NOW);
    const [refused] = (await queueView(k, 'mail', NOW)).failed;
    await expect(retryQueueJob(k, 'mail', refused!.id, by)).rejects.toThrow(/never sent/);
    expect(await retryQueueJob(k, 'mail', 'all', by)).toBe(0);
    expect((await audit(k)).filter((a) => a.startsWith('queue.pause'))).toEqual([
      'queue.pause encode',
      'queue.pause ingest',
      'queue.pause mail',
    ]);
  });

  it('retries a failed ingest in place, unless its folder has a run since', async () => {
    const k = db.knex;
    await k('ingest_runs').insert([
      { folder: 'f1', status: 'failed', requested_by: 'o', created_at: NOW - 3, error: 'disk full' },
      { folder: 'f1', status: 'failed', requested_by: 'o', created_at: NOW - 2, error: 'disk full' },
      { folder: 'f2', status: 'failed', requested_by: 'o', created_at: NOW - 1, error: 'x' },
    ]);
    expect(await retryQueueJob(k, 'ingest', 'all', by)).toBe(2);
    const [older] = (await queueView(k, 'ingest', NOW)).failed;
    expect(older).toMatchObject({ what: 'f1', reason: 'disk full' });
    await expect(retryQueueJob(k, 'ingest', older!.id, by)).rejects.toThrow(/f1 is being ingested by another run/);
    expect((await queueView(k, 'ingest', NOW)).counts).toMatchObject({ queued: 2, failed: 1 });
  });
});
