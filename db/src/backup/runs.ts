import type { Knex } from 'knex';

/** One `ops backup` run as the database keeps it. */
export type BackupRun =
  | {
      status: 'ok';
      setId: string;
      host: string;
      startedAt: number;
      finishedAt: number;
      rows: number;
      files: number;
      bytes: number;
      copiedBytes: number;
    }
  | { status: 'failed'; host: string; startedAt: number; finishedAt: number; error: string };

export async function recordBackupRun(knex: Knex, run: BackupRun): Promise<void> {
  await knex('backup_runs').insert({
    status: run.status,
    host: run.host.slice(0, 100),
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    ...(run.status === 'ok'
      ? { set_id: run.setId, db_rows: run.rows, files: run.files, bytes: run.bytes, copied_bytes: run.copiedBytes }
      : { error: run.error.slice(0, 500) }),
  });
}

/** How long without a good backup before the dashboard calls it late: a daily schedule and 2 h of slack. */
export const BACKUP_LATE_MS = 26 * 3_600_000;

export interface BackupStatus {
  /** The newest good set, null before the first. */
  lastOk: { setId: string; finishedAt: number; files: number; bytes: number } | null;
  /** The newest failed run after it, if any. */
  lastFailed: { finishedAt: number; error: string } | null;
  /** No good set in BACKUP_LATE_MS (or none ever). */
  late: boolean;
}

export async function backupStatus(knex: Knex, now: number): Promise<BackupStatus> {
  const ok = await knex('backup_runs')
    .where({ status: 'ok' })
    .orderBy('finished_at', 'desc')
    .first('set_id', 'finished_at', 'files', 'bytes');
  const failed = await knex('backup_runs')
    .where({ status: 'failed' })
    .andWhere('finished_at', '>', ok ? Number(ok.finished_at) : 0)
    .orderBy('finished_at', 'desc')
    .first('finished_at', 'error');
  const lastOk = ok
    ? { setId: String(ok.set_id), finishedAt: Number(ok.finished_at), files: Number(ok.files), bytes: Number(ok.bytes) }
    : null;
  return {
    lastOk,
    lastFailed: failed ? { finishedAt: Number(failed.finished_at), error: String(failed.error ?? '') } : null,
    late: !lastOk || now - lastOk.finishedAt > BACKUP_LATE_MS,
  };
}
