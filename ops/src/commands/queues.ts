import { RuleError } from '@media-site/db';
import { cancelQueueJob, pauseQueue, queueViews, retryQueueJob } from '@media-site/db/queues';
import { QUEUE_NAMES, QUEUE_TITLES, type QueueJob, type QueueName, type QueueView } from '@media-site/contracts/admin-queues';
import { isoTime } from '@media-site/contracts/iso-time';
import { cliActor, type Command, type CommandContext } from './types';

// The console's Queues screen on the command line: the same view and the same verbs, audited as
// `cli:<user>` (db/src/queues).

const bad = (message: string) => new RuleError('bad_input', message);

function queueOf(name: string | undefined): QueueName {
  if (!(QUEUE_NAMES as readonly string[]).includes(name ?? '')) throw bad(`the queue must be one of ${QUEUE_NAMES.join(', ')}`);
  return name as QueueName;
}

function jobId(text: string | undefined, allowAll: boolean): number | 'all' {
  if (allowAll && text === 'all') return 'all';
  if (!text || !/^\d{1,9}$/.test(text)) throw bad(`the job: a job number from \`ops queues\`${allowAll ? ', or all' : ''}`);
  return Number(text);
}

const iso = (ms: number | null) => isoTime(ms, '-', 's');

function jobLine(job: QueueJob): string {
  const detail = [
    job.progress !== null ? `${Math.floor(job.progress * 100)}%` : '',
    job.worker ? `on ${job.worker}` : '',
    job.attempts ? `attempt ${job.attempts}` : '',
    job.nextTryAt ? `next try ${iso(job.nextTryAt)}` : '',
    job.reason ?? '',
  ].filter(Boolean);
  return `  ${String(job.id).padStart(6)} ${job.state.padEnd(8)} ${job.what.padEnd(36)} since ${iso(job.since)}  ${detail.join('  ')}`;
}

function queueBlock(view: QueueView): string {
  const c = view.counts;
  const head = `${QUEUE_TITLES[view.name]} (${view.name})${view.paused ? `: PAUSED by ${view.paused.by} at ${iso(view.paused.at)}` : ''}`;
  const counts = `  ${c.running} running, ${c.queued} queued, ${c.retrying} waiting to retry, ${c.failed} failed, ${c.done} done`;
  return [head, counts, ...[...view.running, ...view.waiting, ...view.failed].map(jobLine)].join('\n');
}

async function act(ctx: CommandContext, what: (by: { actor: string; now: number }) => Promise<number>): Promise<number> {
  return what({ actor: cliActor(ctx), now: (ctx.io.now ?? Date.now)() });
}

export const queueCommands: Record<string, Command> = {
  queues: {
    usage: `queues [--limit N] [--json]
    The encode, ingest, mail and purge queues: counts by state, running jobs with progress and
    worker, waiting ones, failed ones with their reason (the console's Queues screen).
    --limit N   jobs listed per state and queue (default 20)`,
    options: { limit: { type: 'string' }, json: { type: 'boolean' } },
    positionals: 0,
    async run(_positionals, flags, { knex, io }) {
      const limit = flags.limit === undefined ? 20 : Number(flags.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw bad('--limit must be a whole number from 1 to 1000');
      const views = await queueViews(knex, (io.now ?? Date.now)(), limit);
      io.out(flags.json ? JSON.stringify(views, null, 2) : views.map(queueBlock).join('\n\n'));
      return 0;
    },
  },
  queue: {
    usage: `queue retry <queue> <job|all> | queue cancel <queue> <job> | queue pause <queue> | queue resume <queue>
    Acts on a queue (encode, ingest, mail, purge), audited: retry a failed job (or one waiting to
    retry, now) or every failed one; cancel a job that has not started; pause (workers claim
    nothing new, running jobs finish) or resume. A purge is never cancelled or paused.`,
    options: {},
    positionals: 3,
    minPositionals: 2,
    async run([verb, name, job], _flags, ctx) {
      const queue = queueOf(name);
      let line: string;
      if (verb === 'retry') {
        const id = jobId(job, true);
        const n = await act(ctx, (by) => retryQueueJob(ctx.knex, queue, id, by));
        line = id === 'all' ? `${queue}: ${n} failed job${n === 1 ? '' : 's'} queued again` : `${queue}: job ${id} queued again`;
      } else if (verb === 'cancel') {
        const id = jobId(job, false) as number;
        await act(ctx, (by) => cancelQueueJob(ctx.knex, queue, id, by));
        line = `${queue}: job ${id} cancelled`;
      } else if (verb === 'pause' || verb === 'resume') {
        if (job !== undefined) throw bad(`queue ${verb} takes only the queue's name`);
        const n = await act(ctx, (by) => pauseQueue(ctx.knex, queue, verb === 'pause', by));
        line = `${queue}: ${verb === 'pause' ? 'paused' : 'running'}${n ? '' : ' (it already was)'}`;
      } else throw bad('queue: retry, cancel, pause or resume');
      ctx.io.out(line);
      return 0;
    },
  },
};
