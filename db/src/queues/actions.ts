import type { Knex } from 'knex';
import type { QueueName } from '@media-site/contracts/admin-queues';
import { QUEUE_TITLES } from '@media-site/contracts/admin-queues';
import { appendAudit } from '../admin/audit';
import { AdminRuleError } from '../admin/errors';
import { isUniqueViolation } from '../knex';
import { ADDRESS_REFUSED } from '../mail/headers';
import { pauseSwitch, setSwitch } from './switches';

// What an operator may do to a queue, from the console or the CLI, each in one transaction with its
// audit row: retry a failed job (or one waiting to retry: now), retry every failed job, cancel a
// job that has not started, pause and resume. A running job is never touched here: it finishes, or
// its worker's stop hands it back. A CDN purge is never cancelled or paused (a takedown must reach
// the CDN's caches); it can only be tried now.

export interface QueueActor {
  actor: string;
  address?: string;
  now: number;
}

type Trx = Knex.Transaction;

const conflict = (message: string) => new AdminRuleError('conflict', message);
const notFound = (queue: QueueName, id: number) => new AdminRuleError('not_found', `${QUEUE_TITLES[queue]} queue: no job ${id}`);

/** Why a job cannot be retried or cancelled, from its table's status words. */
function refusal(queue: QueueName, id: number, status: string, verb: 'retried' | 'cancelled'): AdminRuleError {
  const state = status === 'running' ? 'running: it finishes, or its worker hands it back' : status;
  return conflict(`${QUEUE_TITLES[queue]} queue: job ${id} is ${state}, so it cannot be ${verb}`);
}

const RETRY: Record<QueueName, (trx: Trx, id: number | 'all', now: number) => Promise<number>> = {
  async encode(trx, id, now) {
    const again = { status: 'queued', attempts: 0, run_after: 0, progress: 0, error: null, updated_at: now };
    if (id === 'all') return trx('media_jobs').where({ status: 'failed' }).update(again);
    const failed = await trx('media_jobs').where({ id, status: 'failed' }).update(again);
    return failed || trx('media_jobs').where({ id, status: 'queued' }).update({ run_after: 0, updated_at: now });
  },
  async ingest(trx, id, now) {
    // A failed run queued again in place, its folder taken again: a folder with a run since is left
    // alone by "all" (its later run is the one that counts).
    const rows: { id: unknown; folder: unknown }[] =
      id === 'all'
        ? await trx('ingest_runs as r')
            .where('r.status', 'failed')
            .whereNotExists((q) => void q.from('ingest_runs as later').whereRaw('later.folder = r.folder').whereRaw('later.id > r.id'))
            .select('r.id', 'r.folder')
        : await trx('ingest_runs').where({ id, status: 'failed' }).select('id', 'folder');
    let changed = 0;
    for (const row of rows) {
      try {
        changed += await trx('ingest_runs')
          .where({ id: Number(row.id), status: 'failed' })
          .update({
            status: 'queued',
            attempts: 0,
            active_folder: String(row.folder),
            error: null,
            report_json: null,
            total: 0,
            done: 0,
            last_line: '',
            started_at: null,
            finished_at: null,
            created_at: now,
          });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (id !== 'all') throw conflict(`Ingest queue: ${String(row.folder)} is being ingested by another run: wait for it to finish`);
      }
    }
    return changed;
  },
  async mail(trx, id, now) {
    const again = { status: 'pending', attempts: 0, next_attempt_at: now, claimed_until: null, last_error: null };
    const failed = trx('mail_outbox').where({ status: 'failed' }).andWhere('last_error', '<>', ADDRESS_REFUSED);
    if (id === 'all') return failed.update(again);
    const changed = await failed.where({ id }).update(again);
    if (changed) return changed;
    const row = await trx('mail_outbox').where({ id }).first('status', 'last_error');
    if (row?.status === 'failed')
      throw conflict(`Mail queue: mail ${id} is never sent: its address ${ADDRESS_REFUSED.replace('refused: the address ', '')}`);
    return trx('mail_outbox')
      .where({ id, status: 'pending' })
      .andWhere((q) => void q.whereNull('claimed_until').orWhere('claimed_until', '<', now))
      .update({ next_attempt_at: now });
  },
  async purge(trx, id, now) {
    const pending = trx('purge_outbox')
      .whereNull('done_at')
      .andWhere((q) => void q.whereNull('claimed_until').orWhere('claimed_until', '<', now));
    if (id === 'all') return pending.where('attempts', '>', 0).update({ next_attempt_at: now });
    return pending.where({ id }).update({ next_attempt_at: now });
  },
};

const CANCEL: Record<QueueName, ((trx: Trx, id: number, by: QueueActor) => Promise<number>) | null> = {
  encode: (trx, id, by) =>
    trx('media_jobs')
      .where({ id, status: 'queued' })
      .update({ status: 'failed', error: `cancelled by ${by.actor}`, run_after: 0, updated_at: by.now, finished_at: by.now }),
  ingest: (trx, id, by) =>
    trx('ingest_runs')
      .where({ id, status: 'queued' })
      .update({ status: 'failed', active_folder: null, error: `cancelled by ${by.actor}`, finished_at: by.now }),
  mail: (trx, id, by) =>
    trx('mail_outbox')
      .where({ id, status: 'pending' })
      .andWhere((q) => void q.whereNull('claimed_until').orWhere('claimed_until', '<', by.now))
      .update({ status: 'failed', claimed_until: null, last_error: `cancelled by ${by.actor}` }),
  purge: null,
};

const TABLE: Record<QueueName, string> = { encode: 'media_jobs', ingest: 'ingest_runs', mail: 'mail_outbox', purge: 'purge_outbox' };

async function statusOf(trx: Trx, queue: QueueName, id: number, now: number): Promise<string | null> {
  const row = (await trx(TABLE[queue]).where({ id }).first()) as Record<string, unknown> | undefined;
  if (!row) return null;
  if (queue !== 'purge' && !(queue === 'mail' && row.status === 'pending')) return String(row.status);
  if (queue === 'purge' && row.done_at != null) return 'done';
  return Number(row.claimed_until ?? 0) >= now ? 'running' : 'waiting';
}

/** Retries one job (`id`) or every failed one (`'all'`); how many moved. */
export async function retryQueueJob(knex: Knex, queue: QueueName, id: number | 'all', by: QueueActor): Promise<number> {
  return knex.transaction(async (trx) => {
    const changed = await RETRY[queue](trx, id, by.now);
    if (id !== 'all' && changed === 0) {
      const status = await statusOf(trx, queue, id, by.now);
      throw status === null ? notFound(queue, id) : refusal(queue, id, status, 'retried');
    }
    const action = id === 'all' ? 'queue.retry-all' : 'queue.retry';
    await appendAudit(trx, { actor: by.actor, address: by.address, action, target: `${queue}:${id}`, after: { changed }, at: by.now });
    return changed;
  });
}

/** Cancels a job that has not started: it ends as failed, "cancelled by <who>", and can be retried. */
export async function cancelQueueJob(knex: Knex, queue: QueueName, id: number, by: QueueActor): Promise<number> {
  const cancel = CANCEL[queue];
  if (!cancel)
    throw conflict(`${QUEUE_TITLES[queue]}: a purge is never cancelled (a takedown must reach the CDN's caches); it retries on its own`);
  return knex.transaction(async (trx) => {
    const changed = await cancel(trx, id, by);
    if (changed === 0) {
      const status = await statusOf(trx, queue, id, by.now);
      throw status === null ? notFound(queue, id) : refusal(queue, id, status, 'cancelled');
    }
    await appendAudit(trx, { actor: by.actor, address: by.address, action: 'queue.cancel', target: `${queue}:${id}`, at: by.now });
    return changed;
  });
}

/** Pauses (its workers claim nothing new; running jobs finish) or resumes a queue; 1 when it changed. */
export async function pauseQueue(knex: Knex, queue: QueueName, paused: boolean, by: QueueActor): Promise<number> {
  if (queue === 'purge') throw conflict(`${QUEUE_TITLES[queue]}: the purge queue is never paused (a takedown must reach the CDN's caches)`);
  return knex.transaction(async (trx) => {
    const changed = await setSwitch(trx, pauseSwitch(queue), paused, by);
    if (changed)
      await appendAudit(trx, {
        actor: by.actor,
        address: by.address,
        action: paused ? 'queue.pause' : 'queue.resume',
        target: queue,
        at: by.now,
      });
    return changed ? 1 : 0;
  });
}
