import { RuleError } from '@media-site/db';
import {
  formatJobCounts as summary,
  JOB_STATUSES,
  jobCounts,
  listJobs,
  retryFailed,
  type JobRow,
  type JobStatus,
} from '@media-site/db/encode';
import { tallyLine, workQueue } from '@media-site/encoder';
import { ensureAllJobs } from '../ingest/ensure-jobs';
import type { Command } from './types';
import { withBucket } from '../ingest/media-store';
import { isoTime } from '@media-site/contracts/iso-time';

const bad = (message: string) => new RuleError('bad_input', message);

function concurrencyOf(flags: Record<string, unknown>, fallback: number): number {
  if (flags.concurrency === undefined) return fallback;
  const n = Number(flags.concurrency);
  if (!/^\d+$/.test(String(flags.concurrency)) || n < 1 || n > 64) throw bad('--concurrency must be a whole number from 1 to 64');
  return n;
}

const iso = (ms: number | null) => isoTime(ms, '-', 's');

function jobLine(job: JobRow): string {
  const where = `${job.contentType}/${job.path}`.padEnd(40);
  const detail =
    job.status === 'running'
      ? `${String(Math.floor(job.progress * 100)).padStart(3)}%  attempt ${job.attempts}  since ${iso(job.startedAt)}`
      : job.status === 'failed'
        ? `attempt ${job.attempts}  ${job.error ?? ''}`
        : job.status === 'queued'
          ? `${job.attempts ? `retry after attempt ${job.attempts}: ${job.error ?? ''}` : 'waiting'}`
          : `finished ${iso(job.finishedAt)}`;
  return `${job.status.padEnd(8)} ${where} ${detail}`;
}

export const encodeCommands: Record<string, Command> = {
  encode: {
    usage: `encode [--watch] [--scan] [--retry-failed] [--concurrency N] [--quiet]
    Works the encode queue: browser renditions (H.264/AAC MP4), poster, seek-bar sprite and
    thumbnails track, trailer for each video and VOD (docs/operate.md). Returns when the queue
    is empty; SIGINT/SIGTERM hands running jobs back.
    --watch          keep waiting for new jobs (a long-running worker)
    --scan           first queue every video and VOD whose files are missing or out of date
    --retry-failed   queue failed jobs again first
    --concurrency N  jobs at once across all workers (default ENCODE_CONCURRENCY)
    --quiet          failures and the summary only`,
    options: {
      watch: { type: 'boolean' },
      scan: { type: 'boolean' },
      'retry-failed': { type: 'boolean' },
      concurrency: { type: 'string' },
      quiet: { type: 'boolean' },
    },
    positionals: 0,
    async run(_positionals, flags, ctx) {
      const concurrency = concurrencyOf(flags, ctx.config.encode.concurrency);
      const now = (ctx.io.now ?? Date.now)();
      if (flags.scan) {
        const scanned = await withBucket(ctx.config.storage, (bucket) =>
          ensureAllJobs(ctx.knex, { mediaRoot: ctx.config.mediaRoot, bucket }, now),
        );
        ctx.io.err(`scanned ${scanned.items} videos and VODs: ${scanned.queued} queued, ${scanned.missing} without an original`);
      }
      if (flags['retry-failed']) ctx.io.err(`queued ${await retryFailed(ctx.knex, now)} failed jobs again`);
      const tally = await workQueue(ctx, { watch: Boolean(flags.watch), quiet: Boolean(flags.quiet), concurrency });
      ctx.io.out(tallyLine(tally, await jobCounts(ctx.knex)));
      return tally.failed ? 1 : 0;
    },
  },
  jobs: {
    usage: `jobs [--status queued|running|done|failed] [--limit N] [--json]
    The encode queue: counts per state, running jobs with progress, waiting and failed ones.`,
    options: { status: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
    positionals: 0,
    async run(_positionals, flags, { knex, io }) {
      const status = flags.status as string | undefined;
      if (status !== undefined && !(JOB_STATUSES as readonly string[]).includes(status))
        throw bad(`--status must be one of ${JOB_STATUSES.join(', ')}`);
      const limit = flags.limit === undefined ? 50 : Number(flags.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) throw bad('--limit must be a whole number from 1 to 100000');
      const counts = await jobCounts(knex);
      const statuses: readonly JobStatus[] = status ? [status as JobStatus] : ['running', 'queued', 'failed'];
      const jobs = await listJobs(knex, { statuses, limit });
      if (flags.json) {
        io.out(JSON.stringify({ counts, jobs: jobs.map(({ manifest: _manifest, claim: _claim, ...job }) => job) }, null, 2));
        return 0;
      }
      io.out([`encode jobs: ${summary(counts)}`, ...jobs.map(jobLine)].join('\n'));
      return 0;
    },
  },
};
