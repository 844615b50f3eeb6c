import type { Knex } from 'knex';
import type { PlayableType } from '@media-site/contracts/playback-layout';
import { queuePaused } from '../queues/switches';
import { doublingDelay } from '../queues/backoff';
import { numOrNull, strOrNull } from '../row-values';
import { isUniqueViolation } from '../knex';

/**
 * The encode queue: a table (media_jobs, migration 007) rather than a queue server, because the
 * database is already there in every shape of the site (SQLite embedded, MySQL/MariaDB in
 * compose) and a job's state is what the bff reads to say "being prepared". Portable primitives
 * only, no SKIP LOCKED (SQLite has none):
 * - claim: a compare-and-set UPDATE ... WHERE id = ? AND status = 'queued'; one row changed means
 *   this worker has it;
 * - concurrency: a running job holds a `slot` 0..limit-1 under a unique index, so two workers can
 *   never run more than `limit` jobs between them, whatever their timing;
 * - crash: a claim is a lease renewed while the job runs; an expired lease (or a worker on this
 *   host whose process is gone) puts the job back in the queue, and the redo starts clean.
 */
export type JobStatus = 'queued' | 'running' | 'done' | 'failed';
export const JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'done', 'failed'];

type Db = Knex | Knex.Transaction;

export interface JobRow {
  id: number;
  contentType: PlayableType;
  path: string;
  sourceSig: string;
  status: JobStatus;
  attempts: number;
  runAfter: number;
  slot: number | null;
  claim: string | null;
  leaseUntil: number | null;
  /** 0..1 */
  progress: number;
  error: string | null;
  manifest: string | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

function toJob(r: Record<string, unknown>): JobRow {
  return {
    id: Number(r.id),
    contentType: r.content_type as PlayableType,
    path: String(r.path),
    sourceSig: String(r.source_sig),
    status: r.status as JobStatus,
    attempts: Number(r.attempts),
    runAfter: Number(r.run_after),
    slot: numOrNull(r.slot),
    claim: strOrNull(r.claim),
    leaseUntil: numOrNull(r.lease_until),
    progress: Number(r.progress) / 1000,
    error: strOrNull(r.error),
    manifest: strOrNull(r.manifest),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    startedAt: numOrNull(r.started_at),
    finishedAt: numOrNull(r.finished_at),
  };
}

const clip = (text: string) => (text.length > 500 ? `${text.slice(0, 499)}…` : text);

export async function jobById(db: Db, id: number): Promise<JobRow | undefined> {
  const row = await db('media_jobs').where({ id }).first();
  return row ? toJob(row) : undefined;
}

export async function jobFor(db: Db, type: PlayableType, path: string): Promise<JobRow | undefined> {
  const row = await db('media_jobs').where({ content_type: type, path }).first();
  return row ? toJob(row) : undefined;
}

export interface EnqueueInput {
  type: PlayableType;
  path: string;
  sourceSig: string;
  /** Queue again even when the same source was done (its outputs went missing) or failed. */
  again?: boolean;
}

export type EnqueueResult = { id: number; queued: boolean };

/**
 * Makes sure the item's outputs will be made from this source: a new row is queued; a row for
 * another source is queued again from scratch (a running one finishes and then re-queues, see
 * finishJob); a row for the same source is left alone unless `again`.
 */
export async function enqueue(db: Db, input: EnqueueInput, now: number): Promise<EnqueueResult> {
  const existing = await jobFor(db, input.type, input.path);
  if (!existing) {
    try {
      const [id] = await db('media_jobs').insert({
        content_type: input.type,
        path: input.path,
        source_sig: input.sourceSig,
        status: 'queued',
        attempts: 0,
        run_after: 0,
        progress: 0,
        created_at: now,
        updated_at: now,
      });
      return { id: Number(id), queued: true };
    } catch (err) {
      // Another enqueuer inserted it first: apply the rules to its row.
      if (!isUniqueViolation(err)) throw err;
      return enqueue(db, input, now);
    }
  }
  const sameSource = existing.sourceSig === input.sourceSig;
  if (existing.status === 'running') {
    if (!sameSource) await db('media_jobs').where({ id: existing.id }).update({ source_sig: input.sourceSig, updated_at: now });
    return { id: existing.id, queued: !sameSource };
  }
  if (sameSource && !input.again) return { id: existing.id, queued: false };
  if (existing.status === 'queued' && sameSource) return { id: existing.id, queued: false };
  await db('media_jobs')
    .where({ id: existing.id })
    .whereNot({ status: 'running' })
    .update({ source_sig: input.sourceSig, status: 'queued', attempts: 0, run_after: 0, progress: 0, error: null, updated_at: now });
  return { id: existing.id, queued: true };
}

export interface ClaimOptions {
  /** host:pid:random, unique per worker process. */
  claim: string;
  /** The concurrency limit: slots 0..slots-1. */
  slots: number;
  leaseMs: number;
  now: number;
  /** Only these jobs (an ingest waiting for its own items); default any. */
  ids?: readonly number[];
}

/** Claims the oldest runnable job for this worker, or null when none is runnable, no slot is free or the queue is paused. */
export async function claimNext(db: Knex, options: ClaimOptions): Promise<JobRow | null> {
  if (await queuePaused(db, 'encode')) return null;
  const used = new Set((await db('media_jobs').whereNotNull('slot').select('slot')).map((r: { slot: unknown }) => Number(r.slot)));
  const free = Array.from({ length: options.slots }, (_, i) => i).filter((s) => !used.has(s));
  if (!free.length) return null;
  const query = db('media_jobs').where({ status: 'queued' }).where('run_after', '<=', options.now).orderBy('id').limit(20);
  if (options.ids) query.whereIn('id', options.ids.length ? [...options.ids] : [-1]);
  const candidates: { id: unknown }[] = await query.select('id');
  for (const candidate of candidates) {
    const id = Number(candidate.id);
    while (free.length) {
      const slot = free[0] as number;
      try {
        const changed = await db('media_jobs')
          .where({ id, status: 'queued' })
          .update({
            status: 'running',
            slot,
            claim: options.claim,
            lease_until: options.now + options.leaseMs,
            attempts: db.raw('attempts + 1'),
            progress: 0,
            started_at: options.now,
            updated_at: options.now,
          });
        if (changed === 1) return (await jobById(db, id)) ?? null;
        break; // another worker took this job: try the next one
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        free.shift(); // another worker took this slot
      }
    }
    if (!free.length) return null;
  }
  return null;
}

/** Renews the lease and records progress; false when the claim was lost (the job was given to another worker). */
export async function renewLease(db: Db, id: number, claim: string, leaseMs: number, progress: number, now: number): Promise<boolean> {
  const changed = await db('media_jobs')
    .where({ id, claim, status: 'running' })
    .update({ lease_until: now + leaseMs, progress: Math.max(0, Math.min(1000, Math.round(progress * 1000))), updated_at: now });
  return changed === 1;
}

/** Records the signature of the original a claimed job is encoding (the file on disk, which the row follows). */
export async function setSourceSig(db: Db, id: number, claim: string, sig: string): Promise<void> {
  await db('media_jobs').where({ id, claim }).update({ source_sig: sig });
}

/** Whether any job (of `ids`, when given) is still queued or running. */
export async function jobsLeft(db: Db, ids?: readonly number[]): Promise<boolean> {
  const query = db('media_jobs').whereIn('status', ['queued', 'running']).first('id');
  if (ids) query.whereIn('id', ids.length ? [...ids] : [-1]);
  return Boolean(await query);
}

const ended = (now: number) => ({ slot: null, claim: null, lease_until: null, updated_at: now, finished_at: now });

/**
 * Stores the outputs' manifest. Done when the source is still the one encoded; queued again when
 * the original was replaced meanwhile (the new manifest serves until the redo finishes).
 */
export async function finishJob(
  db: Db,
  id: number,
  claim: string,
  encodedSig: string,
  manifest: string,
  now: number,
): Promise<'done' | 'requeued' | 'lost'> {
  const done = await db('media_jobs')
    .where({ id, claim, status: 'running', source_sig: encodedSig })
    .update({ ...ended(now), status: 'done', progress: 1000, error: null, manifest });
  if (done === 1) return 'done';
  const requeued = await db('media_jobs')
    .where({ id, claim, status: 'running' })
    .update({ ...ended(now), status: 'queued', attempts: 0, run_after: 0, progress: 0, error: null, manifest });
  return requeued === 1 ? 'requeued' : 'lost';
}

export interface FailOptions {
  maxAttempts: number;
  /** Wait before the next attempt: this times the attempt number. */
  retryDelayMs: number;
  /** The source cannot be played at all: no retry. */
  permanent?: boolean;
  /**
   * The failure is not the file's (the bucket, the database or the disk failed, a tool was killed):
   * never failed for good; retried later on its own, the wait doubling from `retryDelayMs` up to
   * OUTSIDE_RETRY_MAX_MS, so an outage of hours costs a few tries, not the job.
   */
  outside?: boolean;
}

/** The longest wait between two tries of a job that failed for reasons outside its file. */
export const OUTSIDE_RETRY_MAX_MS = 6 * 3600_000;

/** The wait after the `attempt`-th try failed: linear for the file's failures, doubling (capped) for outside ones. */
export function retryDelay(attempt: number, options: Pick<FailOptions, 'retryDelayMs' | 'outside'>): number {
  const n = Math.max(1, attempt);
  if (!options.outside) return options.retryDelayMs * n;
  return doublingDelay(n, options.retryDelayMs, OUTSIDE_RETRY_MAX_MS);
}

export async function failJob(
  db: Db,
  id: number,
  claim: string,
  error: string,
  now: number,
  options: FailOptions,
): Promise<'failed' | 'retry' | 'lost'> {
  const job = await jobById(db, id);
  if (!job || job.claim !== claim || job.status !== 'running') return 'lost';
  const final = !options.outside && (options.permanent || job.attempts >= options.maxAttempts);
  const changed = await db('media_jobs')
    .where({ id, claim, status: 'running' })
    .update({
      ...ended(now),
      status: final ? 'failed' : 'queued',
      run_after: final ? 0 : now + retryDelay(job.attempts, options),
      error: clip(error),
    });
  return changed !== 1 ? 'lost' : final ? 'failed' : 'retry';
}

/** A worker stopping (SIGTERM) hands its job back untouched: the attempt does not count. */
export async function releaseJob(db: Db, id: number, claim: string, now: number): Promise<void> {
  await db('media_jobs')
    .where({ id, claim, status: 'running' })
    .update({
      slot: null,
      claim: null,
      lease_until: null,
      status: 'queued',
      progress: 0,
      attempts: db.raw('CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END'),
      updated_at: now,
    });
}

/**
 * The wait before a job whose worker died during its `attempt`-th try runs again: none after the
 * first (a deploy's SIGKILL, an OOM of something else, a lost host: the job should go on at once),
 * then `retryDelayMs`, doubling (capped): a file that kills its worker is not retried in a loop.
 */
export function crashDelay(attempt: number, retryDelayMs: number): number {
  return attempt <= 1 ? 0 : doublingDelay(attempt - 1, retryDelayMs, OUTSIDE_RETRY_MAX_MS);
}

/**
 * Puts back the jobs of workers that are gone: an expired lease, or a claim `isDead` recognises
 * (a process on this host that no longer exists); the attempt counts, with crashDelay's wait. A job
 * that has used up its attempts this way fails instead: a file that kills its worker every time
 * must not take the queue down with it.
 */
export async function recoverStale(
  db: Knex,
  now: number,
  isDead: (claim: string) => boolean,
  maxAttempts: number,
  retryDelayMs = 30_000,
): Promise<number> {
  const running: Record<string, unknown>[] = await db('media_jobs')
    .where({ status: 'running' })
    .select('id', 'claim', 'lease_until', 'attempts');
  let recovered = 0;
  for (const row of running) {
    const claim = row.claim === null ? '' : String(row.claim);
    if (!(Number(row.lease_until ?? 0) < now || isDead(claim))) continue;
    const final = Number(row.attempts) >= maxAttempts;
    const changed = await db('media_jobs')
      .where({ id: Number(row.id), claim, status: 'running' })
      .update({
        slot: null,
        claim: null,
        lease_until: null,
        status: final ? 'failed' : 'queued',
        run_after: final ? 0 : now + crashDelay(Number(row.attempts), retryDelayMs),
        progress: 0,
        error: `the worker stopped during attempt ${Number(row.attempts)}`,
        updated_at: now,
        ...(final ? { finished_at: now } : {}),
      });
    recovered += changed;
  }
  return recovered;
}

/** Queues every failed job again with fresh attempts; returns how many. */
export async function retryFailed(db: Db, now: number): Promise<number> {
  return db('media_jobs').where({ status: 'failed' }).update({ status: 'queued', attempts: 0, run_after: 0, progress: 0, updated_at: now });
}

export async function jobCounts(db: Db): Promise<Record<JobStatus, number>> {
  const rows: { status: string; n: unknown }[] = await db('media_jobs').groupBy('status').select('status').count({ n: '*' });
  const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
  for (const row of rows) if ((JOB_STATUSES as readonly string[]).includes(row.status)) counts[row.status as JobStatus] = Number(row.n);
  return counts;
}

export function formatJobCounts(counts: Record<JobStatus, number>): string {
  return `${counts.done} done, ${counts.running} running, ${counts.queued} queued, ${counts.failed} failed`;
}

export async function listJobs(
  db: Db,
  filter: { statuses?: readonly JobStatus[]; ids?: readonly number[]; limit?: number } = {},
): Promise<JobRow[]> {
  const query = db('media_jobs')
    .orderBy('id')
    .limit(filter.limit ?? 1000);
  if (filter.statuses) query.whereIn('status', [...filter.statuses]);
  if (filter.ids) query.whereIn('id', filter.ids.length ? [...filter.ids] : [-1]);
  return (await query.select()).map(toJob);
}
