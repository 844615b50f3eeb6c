import { isoTime } from '@media-site/contracts/iso-time';
import { publishGeneration, readGeneration } from '@media-site/db';
import { S3Originals } from '@media-site/storage';
import { BucketMedia, LocalMedia } from '../backup/media';
import { backup, restore } from '../backup/run';
import { BackupStore } from '../backup/store';
import { setTimeout as sleep } from 'node:timers/promises';
import { nextRunAt } from '../backup/schedule';
import type { CliConfig } from './config';
import type { Command, CommandContext } from './types';

// Backups and restore (docs/operate.md "Backups and restore"): the engine is ../backup; these are
// its three verbs, with the folder from BACKUP_DIR or --to/--from.

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function storeOf(config: CliConfig, flag: unknown): BackupStore {
  return new BackupStore(typeof flag === 'string' && flag !== '' ? flag : config.backup.dir);
}

/** The media as this stack keeps them: the local tree, or the bucket (STORAGE=s3). */
function mediaOf(config: CliConfig): { media: LocalMedia | BucketMedia; close: () => void } {
  if (!config.storage) return { media: new LocalMedia(config.mediaRoot), close: () => {} };
  const bucket = new S3Originals(config.storage);
  return { media: new BucketMedia(bucket, config.scratchDir), close: () => bucket.close() };
}

/** One set, and what it says about it; throws what went wrong. */
async function backupOnce(ctx: CommandContext, store: BackupStore, signal?: AbortSignal): Promise<void> {
  const { config, io } = ctx;
  const { media, close } = mediaOf(config);
  const started = Date.now();
  try {
    const result = await backup({
      knex: ctx.knex,
      store,
      media,
      keepDaily: config.backup.keepDaily,
      keepWeekly: config.backup.keepWeekly,
      now: io.now,
      log: (line) => io.err(line),
      signal,
    });
    const { manifest: m } = result;
    io.out(
      [
        `backup ${m.id} written to ${store.setDir(m.id)} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        `  database: ${m.database.rows} rows, ${Object.keys(m.database.tables).length} tables (${m.database.client}, at ${m.database.migrations.at(-1)}), ${mib(m.database.bytes)} compressed`,
        `  media (${m.media.storage}): ${m.media.files} files, ${mib(m.media.bytes)}; new in this set: ${m.media.copiedFiles} files, ${mib(m.media.copiedBytes)}`,
        ...(result.vanished > 0 ? [`  ${result.vanished} file(s) were deleted while the backup ran and are not in it`] : []),
        `  retention (${config.backup.keepDaily} daily, ${config.backup.keepWeekly} weekly): ${result.pruned.length === 0 ? 'nothing removed' : `removed ${result.pruned.join(', ')}`}`,
      ].join('\n'),
    );
  } finally {
    close();
  }
}

/**
 * `--scheduled`: a set at each BACKUP_SCHEDULE time until SIGTERM or SIGINT (compose's `backup`
 * service). A failed set is reported and the next time tried again; a stop mid-set leaves no set
 * (the next run clears what it wrote) and the lock is given back.
 */
async function scheduledBackups(ctx: CommandContext, store: BackupStore): Promise<number> {
  const { io, config } = ctx;
  const stop = new AbortController();
  const onSignal = () => stop.abort(new Error('stopped by a signal'));
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    while (!stop.signal.aborted) {
      const now = (io.now ?? Date.now)();
      const at = nextRunAt(config.backup.schedule, now);
      io.out(`next backup at ${isoTime(at, '-', 's')} (BACKUP_SCHEDULE), into ${store.dir}`);
      await sleep(at - now, undefined, { signal: stop.signal }).catch(() => {});
      if (stop.signal.aborted) break;
      await backupOnce(ctx, store, stop.signal).catch((err: unknown) =>
        io.err(`backup failed: ${err instanceof Error ? err.message : String(err)}; the next scheduled time tries again`),
      );
    }
    io.out('backup schedule stopped');
    return 0;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}

async function backupCommand(_p: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const store = storeOf(ctx.config, flags.to);
  if (flags.scheduled) return scheduledBackups(ctx, store);
  await backupOnce(ctx, store);
  return 0;
}

async function backupsCommand(_p: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const store = storeOf(ctx.config, flags.from);
  const sets = await store.sets();
  if (flags.json) {
    ctx.io.out(JSON.stringify(sets, null, 2));
    return 0;
  }
  if (sets.length === 0) {
    ctx.io.out(`no backup sets in ${store.dir}`);
    return 0;
  }
  const now = (ctx.io.now ?? Date.now)();
  ctx.io.out(`backup sets in ${store.dir}, newest first:`);
  for (const m of [...sets].reverse()) {
    const hours = (now - m.finishedAt) / 3_600_000;
    ctx.io.out(
      `  ${m.id}  ${hours < 48 ? `${hours.toFixed(1)} h` : `${(hours / 24).toFixed(1)} d`} ago  ${m.database.rows} rows  ${m.media.files} files ${mib(m.media.bytes)}  (new: ${mib(m.media.copiedBytes)})`,
    );
  }
  return 0;
}

async function restoreCommand(positionals: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const { config, io } = ctx;
  const store = storeOf(config, flags.from);
  const { media, close } = mediaOf(config);
  const started = Date.now();
  try {
    const dryRun = flags['dry-run'] === true;
    const result = await restore({ knex: ctx.knex, store, media, set: positionals[0]!, dryRun, log: (line) => io.err(line) });
    const m = result.manifest;
    const made = `made ${isoTime(m.startedAt, '-', 's')}`;
    if (dryRun) {
      for (const problem of result.problems) io.out(`  damaged: ${problem}`);
      io.out(
        result.problems.length === 0
          ? `set ${m.id} (${made}) is whole: ${m.database.rows} rows, ${m.media.files} files (${mib(m.media.bytes)}) checked against their sha256`
          : `set ${m.id} (${made}) is damaged: ${result.problems.length} problem(s)`,
      );
      io.out(result.refused ? `this database would refuse it: ${result.refused}` : 'this database would take it (nothing was changed)');
      return result.problems.length === 0 && !result.refused ? 0 : 1;
    }
    await announce(ctx);
    io.out(
      [
        `restored ${m.id} (${made}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        `  database: ${Object.values(result.rows).reduce((a, b) => a + b, 0)} rows, every table's count as the set records it`,
        `  media (${media.kind}): ${result.placed} files placed, ${result.same} already there, each checked against its sha256`,
      ].join('\n'),
    );
    return 0;
  } finally {
    close();
  }
}

/** Tells running bff instances the catalog changed under them (they would see it at their next poll). */
async function announce(ctx: CommandContext): Promise<void> {
  const { redisUrl, redisHa, cacheKeyPrefix } = ctx.config;
  if (!redisUrl) return;
  const generation = await readGeneration(ctx.knex);
  await publishGeneration(redisUrl, cacheKeyPrefix, generation, redisHa).catch((err: unknown) =>
    ctx.io.err(`warning: could not announce the restored catalog on Redis (${String(err)}); bff instances will see it at their next poll`),
  );
}

export const backupCommands: Record<string, Command> = {
  backup: {
    usage: `backup [--to DIR] [--scheduled]
    Writes a backup set to BACKUP_DIR (or DIR): the database as of one instant (either engine) and
    every media file, copying only what no earlier set holds; then keeps the newest set of each of
    the last BACKUP_KEEP_DAILY days and BACKUP_KEEP_WEEKLY weeks (docs/operate.md "Back up and restore").
    --scheduled: one at each BACKUP_SCHEDULE time (UTC HH:MM,...), until stopped.`,
    options: { to: { type: 'string' }, scheduled: { type: 'boolean' } },
    positionals: 0,
    run: backupCommand,
  },
  backups: {
    usage: `backups [--from DIR] [--json]
    Lists the finished sets, newest first, with their age and size.`,
    options: { from: { type: 'string' }, json: { type: 'boolean' } },
    positionals: 0,
    run: backupsCommand,
  },
  'restore-backup': {
    usage: `restore-backup <set|latest> [--from DIR] [--dry-run]
    Puts a set back into an empty stack: media first (each file checked against its sha256), then
    the database. Refuses a database with members, admins or content. --dry-run checks every byte of
    the set and says whether this database would take it, changing nothing.`,
    options: { from: { type: 'string' }, 'dry-run': { type: 'boolean' } },
    positionals: 1,
    run: restoreCommand,
  },
};
