import { lstat, readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, sep } from 'node:path';
import type { Knex } from 'knex';
import type { Actor } from './accounts';
import { appendAudit } from './audit';
import { AdminRuleError } from './errors';
import { isUniqueViolation } from '../knex';
import { queuePaused } from '../queues/switches';

// Ingests the console asks for: a folder directly under the ingest root (INGEST_ROOT: the
// media volume's incoming folder in compose), run by the operator's ingest worker (`catalog
// ingest-worker`, ops) with the same ingestFolder as `catalog ingest`. The bff only checks the name and
// queues a row; the worker claims it, writes its progress, and finishes it with the report and the
// audit row. One run at a time per folder: `active_folder` is unique while a run is queued or running.

/** A folder name: one path segment, letters, digits, `.`, `_`, `-` and spaces, not starting with `.` (so never `..`). */
export const INGEST_FOLDER = /^\w[\w. -]{0,99}$/;
export const INGEST_FOLDER_MAX = 100;
/** How many folders the console lists (the first, by name). */
export const INGEST_FOLDERS_LISTED = 500;
/** A running ingest whose worker has not written for this long was left by a worker that died. */
export const INGEST_STALE_MS = 10 * 60_000;
/** Tries of one run: a run whose worker died goes back to the queue until this many were made, then fails. */
export const INGEST_MAX_ATTEMPTS = 3;

export type IngestStatus = 'queued' | 'running' | 'done' | 'failed';

/** What the console shows of a finished run: the counts and every failed or skipped item with its reason. */
export interface IngestSummary {
  added: number;
  updated: number;
  unchanged: number;
  skipped: { where: string; reason: string }[];
  failed: { where: string; reason: string }[];
  notes: string[];
}

export interface IngestRun {
  id: number;
  folder: string;
  status: IngestStatus;
  requestedBy: string;
  total: number;
  done: number;
  lastLine: string;
  report: IngestSummary | null;
  error: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function runOf(r: Record<string, unknown>): IngestRun {
  return {
    id: Number(r.id),
    folder: String(r.folder),
    status: String(r.status) as IngestStatus,
    requestedBy: String(r.requested_by),
    total: Number(r.total),
    done: Number(r.done),
    lastLine: String(r.last_line),
    report: typeof r.report_json === 'string' ? (JSON.parse(r.report_json) as IngestSummary) : null,
    error: r.error == null ? null : String(r.error),
    createdAt: Number(r.created_at),
    startedAt: num(r.started_at),
    finishedAt: num(r.finished_at),
  };
}

/** The folder name, checked: one segment, no `..`, no absolute path, no separators (else bad_input). */
export function checkIngestFolder(name: string): string {
  if (name.length === 0) throw new AdminRuleError('bad_input', 'folder: choose a folder to ingest');
  if (name.length > INGEST_FOLDER_MAX) throw new AdminRuleError('bad_input', `folder: at most ${INGEST_FOLDER_MAX} characters`);
  if (isAbsolute(name) || name.includes('/') || name.includes('\\') || !INGEST_FOLDER.test(name))
    throw new AdminRuleError(
      'bad_input',
      'folder: the name of one folder directly under the ingest folder (letters, digits, spaces, . _ -; no paths, no ..)',
    );
  return name;
}

/**
 * The absolute path of `name` under `root`, or an error: it must be a real directory (not a symlink),
 * and its real path must stay inside the root's real path.
 */
export async function resolveIngestFolder(root: string, name: string): Promise<string> {
  checkIngestFolder(name);
  const base = await realpath(root).catch(() => {
    throw new AdminRuleError('not_found', 'the ingest folder (INGEST_ROOT) does not exist on this server');
  });
  const path = join(base, name);
  const info = await lstat(path).catch(() => null);
  if (!info) throw new AdminRuleError('not_found', `folder: there is no folder ${name} in the ingest folder`);
  if (info.isSymbolicLink()) throw new AdminRuleError('bad_input', `folder: ${name} is a link, not a folder: copy the files in instead`);
  if (!info.isDirectory()) throw new AdminRuleError('bad_input', `folder: ${name} is a file, not a folder`);
  const real = await realpath(path);
  if (!real.startsWith(base + sep)) throw new AdminRuleError('bad_input', `folder: ${name} is outside the ingest folder`);
  return real;
}

/** The folders directly under `root` (symlinks and hidden folders left out), by name; [] when root is missing. */
export async function listIngestFolders(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && INGEST_FOLDER.test(e.name))
    .map((e) => e.name)
    .sort()
    .slice(0, INGEST_FOLDERS_LISTED);
}

/**
 * Runs whose worker stopped writing (a crash, a kill, a lost host), at the next request or claim: back
 * in the queue with their folder kept while tries remain (an ingest is safe to run again: what is
 * already in is left as it is), else failed and their folder free again.
 */
async function reapStale(trx: Knex | Knex.Transaction, now: number): Promise<void> {
  const stale = () =>
    trx('ingest_runs')
      .where({ status: 'running' })
      .where('heartbeat_at', '<', now - INGEST_STALE_MS);
  await stale()
    .where('attempts', '<', INGEST_MAX_ATTEMPTS)
    .update({ status: 'queued', heartbeat_at: null, started_at: null, error: 'the ingest worker stopped during the run: queued again' });
  await stale().update({
    status: 'failed',
    active_folder: null,
    error: `the ingest worker stopped answering (${INGEST_MAX_ATTEMPTS} tries)`,
    finished_at: now,
  });
}

/**
 * Queues an ingest of `name` (checked under `root`): the run's id, or a conflict when that folder's
 * ingest is queued or running. The audit row (who asked, which folder) is in the same transaction.
 */
export async function requestIngest(knex: Knex, root: string, name: string, by: Actor & { now: number }): Promise<IngestRun> {
  await resolveIngestFolder(root, name);
  // Before the request's transaction: a refused request (409) must not undo the hand-back.
  await reapStale(knex, by.now);
  return knex.transaction(async (trx) => {
    const busy = await trx('ingest_runs').where({ active_folder: name }).first('id');
    if (busy)
      throw new AdminRuleError('conflict', `folder: ${name} is already being ingested (run ${Number(busy.id)}): wait for it to finish`);
    const [id] = await trx('ingest_runs')
      .insert({ folder: name, active_folder: name, status: 'queued', requested_by: by.actor.slice(0, 80), created_at: by.now })
      .catch((err: unknown) => {
        // Two requests at once: the unique active_folder lets one in.
        if (isUniqueViolation(err))
          throw new AdminRuleError('conflict', `folder: ${name} is already being ingested: wait for it to finish`);
        throw err;
      });
    await appendAudit(trx, { actor: by.actor, address: by.address, action: 'content.ingest.start', target: name, at: by.now });
    return runOf((await trx('ingest_runs').where({ id }).first())!);
  });
}

export async function ingestRun(db: Knex, id: number): Promise<IngestRun | undefined> {
  const row = await db('ingest_runs').where({ id }).first();
  return row ? runOf(row) : undefined;
}

/** The latest runs, newest first. */
export async function recentIngests(db: Knex, limit = 20): Promise<IngestRun[]> {
  const rows: Record<string, unknown>[] = await db('ingest_runs').orderBy('id', 'desc').limit(limit).select('*');
  return rows.map(runOf);
}

/** The worker's side: the oldest queued run, now running (a conditional update: two workers never both claim it); none while paused. */
export async function claimIngest(knex: Knex, now: number): Promise<IngestRun | undefined> {
  await reapStale(knex, now);
  if (await queuePaused(knex, 'ingest')) return undefined;
  for (;;) {
    const next = await knex('ingest_runs').where({ status: 'queued' }).orderBy('id').first('id');
    if (!next) return undefined;
    const moved = await knex('ingest_runs')
      .where({ id: next.id, status: 'queued' })
      .update({ status: 'running', started_at: now, heartbeat_at: now, attempts: knex.raw('attempts + 1') });
    if (moved === 1) return ingestRun(knex, Number(next.id));
  }
}

/** Progress: `done` of `total` items, and the last item's line. */
export async function ingestProgress(db: Knex, id: number, p: { done: number; total: number; line: string }, now: number): Promise<void> {
  await db('ingest_runs')
    .where({ id })
    .update({ done: p.done, total: p.total, last_line: p.line.slice(0, 300), heartbeat_at: now });
}

/** The end of a run: its report (or the error that stopped it), the folder free again, and the audit row with the result. */
export async function finishIngest(
  knex: Knex,
  id: number,
  result: { report: IngestSummary } | { error: string },
  now: number,
): Promise<void> {
  await knex.transaction(async (trx) => {
    const row = await trx('ingest_runs').where({ id }).first();
    if (!row) return;
    const failed = 'error' in result;
    await trx('ingest_runs')
      .where({ id })
      .update({
        status: failed ? 'failed' : 'done',
        active_folder: null,
        report_json: failed ? null : JSON.stringify(result.report),
        error: failed ? result.error.slice(0, 300) : null,
        finished_at: now,
        heartbeat_at: now,
      });
    const after = failed
      ? { error: result.error.slice(0, 300) }
      : {
          added: result.report.added,
          updated: result.report.updated,
          unchanged: result.report.unchanged,
          skipped: result.report.skipped.length,
          failed: result.report.failed.length,
        };
    await appendAudit(trx, { actor: String(row.requested_by), action: 'content.ingest', target: String(row.folder), after, at: now });
  });
}
