import type { Knex } from 'knex';
import {
  QUEUE_LIST_MAX,
  QUEUE_NAMES,
  type QueueCounts,
  type QueueJob,
  type QueueName,
  type QueueView,
} from '@media-site/contracts/admin-queues';
import { pauseSwitch, switchState } from './switches';

// What the queue screen and `ops queues` show of the four queues of background work: the encode
// jobs (media_jobs), the console's ingest runs (ingest_runs), the mail outbox and the purge outbox.
// Each is its own table with its own words for the same states; this file maps them onto one view:
// counts by state, the running jobs, the waiting ones (oldest first) and the failed ones (newest
// first), QUEUE_LIST_MAX of each.

type Row = Record<string, unknown>;
type Which = 'running' | 'waiting' | 'failed';

const n = (v: unknown) => Number(v ?? 0);
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 199)}…` : s);
/** host:pid of a claim written as host:pid:random. */
const workerOf = (claim: unknown) => (claim == null ? null : String(claim).split(':').slice(0, 2).join(':'));

interface Adapter {
  counts(db: Knex, now: number): Promise<QueueCounts>;
  list(db: Knex, now: number, which: Which, limit: number): Promise<QueueJob[]>;
  can: QueueView['can'];
}

async function countBy(query: Knex.QueryBuilder, column: string): Promise<Map<string, number>> {
  const rows = (await query.groupBy(column).select(column).count({ n: '*' })) as Row[];
  return new Map(rows.map((r) => [String(r[column]), n(r.n)]));
}

async function count(query: Knex.QueryBuilder): Promise<number> {
  const row = (await query.count({ n: '*' }).first()) as Row | undefined;
  return n(row?.n);
}

/** Counts of a table whose `status` column says queued/running/failed/done; `retrying` of the queued. */
async function statusCounts(db: Knex, table: string, retrying: number): Promise<QueueCounts> {
  const by = await countBy(db(table), 'status');
  const of = (status: string) => by.get(status) ?? 0;
  return { queued: of('queued') - retrying, retrying, running: of('running'), failed: of('failed'), done: of('done') };
}

/** One list of such a table: running and waiting oldest first, failed newest first (by `failedOrder`). */
function statusList(db: Knex, table: string, which: Which, limit: number, failedOrder: string): Knex.QueryBuilder {
  const q = db(table).limit(limit);
  if (which === 'running') return q.where({ status: 'running' }).orderBy('id');
  if (which === 'waiting') return q.where({ status: 'queued' }).orderBy('id');
  return q.where({ status: 'failed' }).orderBy(failedOrder, 'desc').orderBy('id', 'desc');
}

// --- encode: media_jobs (queued, running, done, failed; a queued job with attempts or a later
// run_after is waiting to retry)

const encodeRetrying = (q: Knex.QueryBuilder, now: number) =>
  q.where({ status: 'queued' }).andWhere((w) => void w.where('attempts', '>', 0).orWhere('run_after', '>', now));

const encode: Adapter = {
  can: { cancel: true, pause: true },
  async counts(db, now) {
    return statusCounts(db, 'media_jobs', await count(encodeRetrying(db('media_jobs'), now)));
  },
  async list(db, now, which, limit) {
    const q = statusList(db, 'media_jobs', which, limit, 'updated_at');
    const rows = (await q.select(
      'id',
      'content_type',
      'path',
      'status',
      'attempts',
      'run_after',
      'claim',
      'progress',
      'error',
      'created_at',
      'updated_at',
      'started_at',
    )) as Row[];
    return rows.map((r) => {
      const retrying = r.status === 'queued' && (n(r.attempts) > 0 || n(r.run_after) > now);
      return {
        id: n(r.id),
        what: `${String(r.content_type)}/${String(r.path)}`,
        state: r.status === 'queued' ? (retrying ? 'retrying' : 'queued') : r.status === 'running' ? 'running' : 'failed',
        attempts: n(r.attempts),
        progress: r.status === 'running' ? n(r.progress) / 1000 : null,
        worker: r.status === 'running' ? workerOf(r.claim) : null,
        since: n(r.status === 'running' ? r.started_at : r.status === 'queued' && !retrying ? r.created_at : r.updated_at),
        reason: text(r.error),
        nextTryAt: retrying && n(r.run_after) > now ? n(r.run_after) : null,
      } satisfies QueueJob;
    });
  },
};

// --- ingest: ingest_runs (queued, running, done, failed; a queued run with tries was handed back by a worker that died)

const ingest: Adapter = {
  can: { cancel: true, pause: true },
  counts: async (db) =>
    statusCounts(db, 'ingest_runs', await count(db('ingest_runs').where({ status: 'queued' }).where('attempts', '>', 0))),
  async list(db, _now, which, limit) {
    const q = statusList(db, 'ingest_runs', which, limit, 'id');
    const rows = (await q.select(
      'id',
      'folder',
      'status',
      'attempts',
      'total',
      'done',
      'error',
      'created_at',
      'started_at',
      'finished_at',
    )) as Row[];
    return rows.map((r) => ({
      id: n(r.id),
      what: String(r.folder),
      state: r.status === 'queued' ? (n(r.attempts) > 0 ? 'retrying' : 'queued') : r.status === 'running' ? 'running' : 'failed',
      attempts: n(r.attempts),
      progress: r.status === 'running' && n(r.total) > 0 ? n(r.done) / n(r.total) : null,
      worker: null,
      since: n(r.status === 'running' ? r.started_at : r.status === 'queued' ? r.created_at : (r.finished_at ?? r.created_at)),
      reason: text(r.error),
      nextTryAt: null,
    }));
  },
};

// --- mail and purge outboxes: a row is sent/done or pending; a pending row under a live claim is
// being sent; one with attempts waits to retry.

interface OutboxShape {
  table: string;
  pending: (q: Knex.QueryBuilder) => Knex.QueryBuilder;
  what: (r: Row) => string;
  failed?: (q: Knex.QueryBuilder) => Knex.QueryBuilder;
  done: (q: Knex.QueryBuilder) => Knex.QueryBuilder;
  nextColumn: string;
}

function outbox(shape: OutboxShape, can: QueueView['can']): Adapter {
  const live = (q: Knex.QueryBuilder, now: number) => shape.pending(q).where('claimed_until', '>=', now);
  const idle = (q: Knex.QueryBuilder, now: number) =>
    shape.pending(q).andWhere((w) => void w.whereNull('claimed_until').orWhere('claimed_until', '<', now));
  return {
    can,
    async counts(db, now) {
      const running = await count(live(db(shape.table), now));
      const retrying = await count(idle(db(shape.table), now).where('attempts', '>', 0));
      const queued = await count(idle(db(shape.table), now).where('attempts', 0));
      const failed = shape.failed ? await count(shape.failed(db(shape.table))) : 0;
      return { queued, retrying, running, failed, done: await count(shape.done(db(shape.table))) };
    },
    async list(db, now, which, limit) {
      if (which === 'failed' && !shape.failed) return [];
      const q =
        which === 'running'
          ? live(db(shape.table), now).orderBy('id')
          : which === 'waiting'
            ? idle(db(shape.table), now).orderBy('id')
            : shape.failed!(db(shape.table)).orderBy('id', 'desc');
      const rows = (await q.limit(limit).select('*')) as Row[];
      return rows.map((r) => {
        const state = which === 'running' ? 'running' : which === 'failed' ? 'failed' : n(r.attempts) > 0 ? 'retrying' : 'queued';
        const next = n(r[shape.nextColumn]);
        return {
          id: n(r.id),
          what: clip(shape.what(r)),
          state,
          attempts: n(r.attempts),
          progress: null,
          worker: null,
          since: n(r.created_at),
          reason: text(r.last_error),
          nextTryAt: state === 'retrying' && next > now ? next : null,
        } satisfies QueueJob;
      });
    },
  };
}

// A mail is named by its template and key (never its address or subject: they are a member's).
const mail = outbox(
  {
    table: 'mail_outbox',
    pending: (q) => q.where('status', 'pending'),
    failed: (q) => q.where('status', 'failed'),
    done: (q) => q.where('status', 'sent'),
    what: (r) => `${String(r.template)} ${String(r.mail_key)}`,
    nextColumn: 'next_attempt_at',
  },
  { cancel: true, pause: true },
);

const purgePrefixes = (r: Row) => {
  try {
    return (JSON.parse(String(r.prefixes)) as string[]).join(' ');
  } catch {
    return '';
  }
};

// A purge never fails for good (it retries until the CDN takes it) and is never cancelled or paused.
const purge = outbox(
  {
    table: 'purge_outbox',
    pending: (q) => q.whereNull('done_at'),
    done: (q) => q.whereNotNull('done_at'),
    what: (r) => `${String(r.event)} ${purgePrefixes(r)}`,
    nextColumn: 'next_attempt_at',
  },
  { cancel: false, pause: false },
);

export const QUEUES: Record<QueueName, Adapter> = { encode, ingest, mail, purge };

/** One queue as the screen shows it. */
export async function queueView(db: Knex, name: QueueName, now: number, limit = QUEUE_LIST_MAX): Promise<QueueView> {
  const q = QUEUES[name];
  const paused = await switchState(db, pauseSwitch(name));
  return {
    name,
    paused: paused && { by: paused.by, at: paused.at },
    counts: await q.counts(db, now),
    running: await q.list(db, now, 'running', limit),
    waiting: await q.list(db, now, 'waiting', limit),
    failed: await q.list(db, now, 'failed', limit),
    can: q.can,
  };
}

export async function queueViews(db: Knex, now: number, limit = QUEUE_LIST_MAX): Promise<QueueView[]> {
  const views: QueueView[] = [];
  for (const name of QUEUE_NAMES) views.push(await queueView(db, name, now, limit));
  return views;
}
