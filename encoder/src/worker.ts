import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Knex } from 'knex';
import { PREVIEW_FAMILIES, RENDITION_FAMILIES } from '@media-site/contracts/playback-layout';
import { S3Originals, type S3Settings } from '@media-site/storage';
import { BadOutput, ClaimLost, deriveItem, dropStaleLocalRenditions, staleRenditions, type EncodeSettings } from './derive';
import { FfmpegError } from './ffmpeg-run';
import {
  claimNext,
  failJob,
  finishJob,
  jobsLeft,
  type JobRow,
  type Manifest,
  originalFile,
  recordEncoded,
  recoverStale,
  releaseJob,
  renewLease,
  setSourceSig,
  sourceSig,
} from '@media-site/db/encode';
import { queuePaused } from '@media-site/db/queues';
import { UnplayableSource } from './probe';

export interface WorkerOptions {
  knex: Knex;
  mediaRoot: string;
  settings: EncodeSettings;
  /** Jobs at once, across every worker sharing the database (see queue.ts, slots). */
  concurrency: number;
  leaseMs: number;
  maxAttempts: number;
  retryDelayMs?: number;
  /** Keep waiting for new jobs; otherwise return once no job in scope is queued or running. */
  watch?: boolean;
  pollMs?: number;
  /** Only these jobs (and wait for them only). */
  ids?: readonly number[];
  onEvent?: (event: WorkerEvent) => void;
  now?: () => number;
  /**
   * STORAGE=s3: each job downloads its original from this bucket into a fresh folder under
   * `scratchDir`, encodes there (the folder standing in for MEDIA_ROOT), uploads every output under
   * the same media paths and only then is recorded done; the folder is removed in every case.
   */
  storage?: S3Settings | null;
  scratchDir?: string;
}

export type WorkerEvent =
  | { kind: 'started'; job: JobRow }
  | { kind: 'progress'; job: JobRow; share: number }
  | { kind: 'done'; job: JobRow; manifest: Manifest; seconds: number; requeued: boolean }
  | { kind: 'failed'; job: JobRow; error: string; final: boolean }
  | { kind: 'released'; job: JobRow }
  | { kind: 'lost'; job: JobRow }
  /** Nothing to claim and nothing running, after some work (a watching worker's "all caught up"). */
  | { kind: 'idle' }
  /** The queue could not be read or written (database down); a watching worker tries again. */
  | { kind: 'error'; error: string };

// Claims held by workers in this process: a claim naming this process but none of these is a
// previous incarnation's (a container restarted with the same pid), so its job is free again.
const liveClaims = new Set<string>();
const HOST = hostname();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

/** A claim of a worker on this host whose process is gone: its job can be taken back at once, without waiting for the lease. */
export function claimIsDead(claim: string): boolean {
  const [host, pidText] = claim.split(':');
  const pid = Number(pidText);
  if (host !== HOST || !Number.isInteger(pid) || pid <= 0) return false;
  return pid === process.pid ? !liveClaims.has(claim) : !pidAlive(pid);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

interface Running {
  job: JobRow;
  abort: AbortController;
  settled: Promise<void>;
}

/** Claims jobs up to the concurrency limit and runs them; `stop()` hands running jobs back. */
export class EncodeWorker {
  readonly claim = `${HOST}:${process.pid}:${randomBytes(6).toString('hex')}`;
  private readonly running = new Map<number, Running>();
  private stopping = false;
  private wake: (() => void) | undefined;
  private readonly now: () => number;
  private readonly bucket: S3Originals | null;

  constructor(private readonly options: WorkerOptions) {
    this.now = options.now ?? Date.now;
    this.bucket = options.storage ? new S3Originals(options.storage) : null;
  }

  get active(): number {
    return this.running.size;
  }

  async run(): Promise<void> {
    liveClaims.add(this.claim);
    const { knex, concurrency, leaseMs, maxAttempts } = this.options;
    let busy = false;
    try {
      while (!this.stopping) {
        try {
          await recoverStale(knex, this.now(), claimIsDead, maxAttempts, this.options.retryDelayMs ?? 30_000);
          while (this.running.size < concurrency && !this.stopping) {
            const job = await claimNext(knex, { claim: this.claim, slots: concurrency, leaseMs, now: this.now(), ids: this.options.ids });
            if (!job) break;
            this.start(job);
          }
          if (this.running.size === 0) {
            if (busy) this.options.onEvent?.({ kind: 'idle' });
            busy = false;
            if (!this.options.watch && !(await this.workLeft())) break;
          } else {
            busy = true;
          }
        } catch (err) {
          // A long-running worker outlives a database outage; a one-off run reports it and ends.
          if (!this.options.watch) throw err;
          this.options.onEvent?.({ kind: 'error', error: message(err) });
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollMs ?? 1000);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      await Promise.all([...this.running.values()].map((r) => r.settled));
    } finally {
      liveClaims.delete(this.claim);
    }
  }

  /** Stops claiming, cancels running encodes and hands their jobs back to the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const r of this.running.values()) r.abort.abort();
    this.wake?.();
    await Promise.all([...this.running.values()].map((r) => r.settled));
  }

  /** Whether a one-off run should wait for more: jobs are left, and the queue is not paused (it would wait for ever). */
  private async workLeft(): Promise<boolean> {
    return !(await queuePaused(this.options.knex, 'encode')) && jobsLeft(this.options.knex, this.options.ids);
  }

  private start(job: JobRow): void {
    const abort = new AbortController();
    const entry: Running = { job, abort, settled: Promise.resolve() };
    entry.settled = this.execute(job, abort)
      // Only the queue's own bookkeeping can throw here (the database went away): the lease then
      // expires and another attempt redoes the job.
      .catch((err: unknown) => this.options.onEvent?.({ kind: 'error', error: message(err) }))
      .finally(() => {
        this.running.delete(job.id);
        this.wake?.();
      });
    this.running.set(job.id, entry);
  }

  /** Deletes the item's renditions (bucket objects, or files under MEDIA_ROOT) the recorded manifest no longer names. */
  private async dropStale(job: JobRow, manifest: Manifest): Promise<void> {
    if (!this.bucket) {
      await dropStaleLocalRenditions(this.options.mediaRoot, job.contentType, job.path, manifest);
      return;
    }
    const prefix = `${RENDITION_FAMILIES[job.contentType]}/${job.path}/`;
    const names = (await this.bucket.list(prefix)).map((o) => o.relative.slice(prefix.length));
    await this.bucket.remove(staleRenditions(names, manifest).map((name) => prefix + name));
  }

  private async execute(job: JobRow, abort: AbortController): Promise<void> {
    const { knex, mediaRoot, leaseMs } = this.options;
    const emit = (event: WorkerEvent) => this.options.onEvent?.(event);
    const started = performance.now();
    let share = 0;
    let lost = false;
    const renew = async () => {
      if (lost) return false;
      const mine = await renewLease(knex, job.id, this.claim, leaseMs, share, this.now()).catch(() => true);
      if (!mine) {
        lost = true;
        abort.abort();
      }
      return mine;
    };
    const heartbeat = setInterval(() => void renew(), Math.max(200, Math.floor(leaseMs / 4)));
    emit({ kind: 'started', job });
    // With a bucket, a per-job scratch folder stands in for MEDIA_ROOT.
    let scratch: string | undefined;
    try {
      if (this.bucket) {
        const base = this.options.scratchDir ?? join(tmpdir(), 'media-encoder');
        await mkdir(base, { recursive: true });
        scratch = await mkdtemp(join(base, `job-${job.id}-`));
      }
      const root = scratch ?? mediaRoot;
      const original = await originalFile(knex, root, job.contentType, job.path);
      if (original && this.bucket) {
        const key = relative(root, original).split(sep).join('/');
        if (!(await this.bucket.head(key)))
          throw new UnplayableSource(`the original of ${job.contentType}/${job.path} is not in the bucket`);
        await this.bucket.download(key, original);
      }
      const sig = original && (await sourceSig(original));
      if (!original || !sig) throw new UnplayableSource(`the original of ${job.contentType}/${job.path} is missing`);
      // The file on disk is what gets encoded; the row follows it, so a finished job compares like with like.
      if (sig !== job.sourceSig) await setSourceSig(knex, job.id, this.claim, sig);
      const manifest = await deriveItem({
        jobId: job.id,
        attempt: randomBytes(4).toString('hex'),
        type: job.contentType,
        path: job.path,
        original,
        sourceSig: sig,
        mediaRoot: root,
        settings: this.options.settings,
        signal: abort.signal,
        onProgress: (s) => {
          share = s;
          emit({ kind: 'progress', job, share: s });
        },
        stillMine: renew,
      });
      if (this.bucket) {
        // Every output under its media path; a crash before finishJob leaves no done row, and the retry overwrites these.
        for (const family of [RENDITION_FAMILIES[job.contentType], PREVIEW_FAMILIES[job.contentType]]) {
          await this.bucket.putTree(`${family}/${job.path}`, join(root, family, job.path));
        }
      }
      const outcome = await finishJob(knex, job.id, this.claim, sig, JSON.stringify(manifest), this.now());
      // The listing cards: a running time ingest could not read (or read otherwise), and a first
      // encode's hover preview.
      if (outcome !== 'lost')
        await recordEncoded(knex, job.contentType, job.path, manifest.duration, { firstOutputs: job.manifest === null });
      if (outcome === 'lost') emit({ kind: 'lost', job });
      else {
        emit({ kind: 'done', job, manifest, seconds: (performance.now() - started) / 1000, requeued: outcome === 'requeued' });
        // Only now that the new manifest is recorded: renditions an earlier, larger source had (run() waits for this too).
        await this.dropStale(job, manifest).catch((err: unknown) =>
          emit({ kind: 'error', error: `renditions no longer in the manifest of ${job.contentType}/${job.path}: ${message(err)}` }),
        );
      }
    } catch (err) {
      if (lost || err instanceof ClaimLost) {
        emit({ kind: 'lost', job });
      } else if (this.stopping) {
        // A graceful stop never counts an attempt, whatever the stop did to the run on its way out
        // (the encode cancelled, a tool or the database answering an error as the process ends).
        await releaseJob(knex, job.id, this.claim, this.now());
        emit({ kind: 'released', job });
      } else {
        const error = message(err);
        const result = await failJob(knex, job.id, this.claim, error, this.now(), {
          maxAttempts: this.options.maxAttempts,
          retryDelayMs: this.options.retryDelayMs ?? 30_000,
          permanent: err instanceof UnplayableSource,
          // What ffmpeg or the checks say about the file counts its attempts; anything else (the
          // bucket, the database, the disk, a killed tool) the service (`watch`) retries later
          // without end. A one-off run (`ops encode`) must return: there it counts like the rest.
          outside:
            this.options.watch === true && !(err instanceof UnplayableSource || err instanceof FfmpegError || err instanceof BadOutput),
        });
        if (result === 'lost') emit({ kind: 'lost', job });
        else emit({ kind: 'failed', job, error, final: result === 'failed' });
      }
    } finally {
      clearInterval(heartbeat);
      if (scratch) await rm(scratch, { recursive: true, force: true });
    }
  }
}
