import { claimIngest, finishIngest, ingestProgress, resolveIngestFolder, type IngestRun } from '@media-site/db/admin';
import { publishGeneration } from '@media-site/db';
import { S3Originals } from '@media-site/storage';
import { ingestFolder } from '../ingest/ingest';
import type { Command, CommandContext } from './types';

// The console's ingests: the bff queues a row in `ingest_runs` for a folder under
// INGEST_ROOT; this worker (compose: the `ingest-worker` service, the operator image, which has
// ffmpeg and the media volume) claims it, runs the same ingestFolder as `catalog ingest`, writes the
// progress the console polls, and finishes the row with the report and its audit row.

const IDLE_MS = 2000;

function message(err: unknown): string {
  return err instanceof Error ? (err.message.split('\n')[0] ?? err.name) : String(err);
}

/** Runs one claimed ingest to its end; never throws (the row says what went wrong). */
export async function runIngest(ctx: CommandContext, run: IngestRun): Promise<void> {
  const { knex, config, io } = ctx;
  const now = io.now ?? Date.now;
  const { redisUrl, redisHa, cacheKeyPrefix } = config;
  const originals = config.storage ? new S3Originals(config.storage) : null;
  try {
    // Checked again here: the folder may have changed (or become a link) since the console queued it.
    const folder = await resolveIngestFolder(config.ingestRoot, run.folder);
    const report = await ingestFolder({
      knex,
      folder,
      mediaRoot: config.mediaRoot,
      originals,
      scratchDir: config.scratchDir,
      ffmpeg: config.ffmpeg,
      publish: redisUrl ? (generation) => publishGeneration(redisUrl, cacheKeyPrefix, generation, redisHa) : undefined,
      step: (done, total, where) => ingestProgress(knex, run.id, { done, total, line: where }, now()),
      now,
    });
    const { added, updated, unchanged } = report.totals;
    await finishIngest(
      knex,
      run.id,
      { report: { added, updated, unchanged, skipped: report.skipped, failed: report.failed, notes: report.notes } },
      now(),
    );
    io.err(`ingest ${run.id} (${run.folder}): ${added} added, ${updated} updated, ${report.failed.length} failed`);
  } catch (err) {
    await finishIngest(knex, run.id, { error: message(err) }, now());
    io.err(`ingest ${run.id} (${run.folder}) failed: ${message(err)}`);
  } finally {
    await originals?.close();
  }
}

export const ingestWorkerCommands: Record<string, Command> = {
  'ingest-worker': {
    usage: `ingest-worker [--once]
    Runs the ingests queued from the operator console (folders under INGEST_ROOT), one at a time,
    with the same rules as ingest; polls every 2 s until stopped (SIGTERM ends it after the current run).
    --once     run what is queued now, then exit`,
    options: { once: { type: 'boolean' } },
    positionals: 0,
    async run(_positionals, flags, ctx) {
      let stopping = false;
      const stop = () => {
        stopping = true;
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      try {
        while (!stopping) {
          const run = await claimIngest(ctx.knex, (ctx.io.now ?? Date.now)());
          if (run) await runIngest(ctx, run);
          else if (flags.once) break;
          else await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
        }
      } finally {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
      }
      return 0;
    },
  },
};
