import { resolve } from 'node:path';
import { publishGeneration } from '@media-site/db';
import { workQueue } from '@media-site/encoder';
import { S3Originals } from '@media-site/storage';
import { ingestFolder } from '../ingest/ingest';
import { formatReport } from '../ingest/report';
import { catalogStats, formatStats } from '../ingest/stats';
import { contentEditCommands } from './content-edit';
import { ingestWorkerCommands } from './ingest-worker';
import { scheduleCommands } from './schedule';
import type { Command } from './types';

/** Putting content online: a folder into the catalog, and what the catalog holds. */
export const catalogCommands: Record<string, Command> = {
  ingest: {
    usage: `ingest <folder> [--link] [--dry-run] [--wait] [--json] [--quiet]
    Adds or updates catalog rows and media from a folder laid out as docs/operate.md describes,
    and queues the encoding of its videos and VODs (see encode).
    --link     hard-link files into MEDIA_ROOT instead of copying (same filesystem only;
               ignored with STORAGE=s3, where every file is uploaded to the bucket)
    --dry-run  validate and report what would change; write nothing
    --wait     then encode this folder's videos and VODs here, with a progress bar
    --json     print the report as JSON
    --quiet    no per-item progress lines`,
    options: {
      link: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      wait: { type: 'boolean' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean' },
    },
    positionals: 1,
    async run([folder], flags, ctx) {
      const { knex, config, io } = ctx;
      const { redisUrl, redisHa, cacheKeyPrefix } = config;
      const originals = config.storage && !flags['dry-run'] ? new S3Originals(config.storage) : null;
      const report = await ingestFolder({
        knex,
        // npm runs workspace scripts from ops/; INIT_CWD is where the operator typed the command.
        folder: resolve(io.env.INIT_CWD ?? process.cwd(), folder as string),
        mediaRoot: config.mediaRoot,
        mode: flags.link ? 'link' : 'copy',
        originals,
        scratchDir: config.scratchDir,
        ffmpeg: config.ffmpeg,
        dryRun: Boolean(flags['dry-run']),
        publish: redisUrl ? (generation) => publishGeneration(redisUrl, cacheKeyPrefix, generation, redisHa) : undefined,
        progress: flags.quiet || flags.json ? undefined : (line) => io.err(line),
      }).finally(() => originals?.close());
      io.out(flags.json ? JSON.stringify(report, null, 2) : formatReport(report));
      if (flags.wait && !report.dryRun && report.encode.pending.length) {
        const tally = await workQueue(ctx, { ids: report.encode.pending, quiet: Boolean(flags.quiet || flags.json) });
        io.err(`encoded ${tally.done}, ${tally.failed} failed`);
        if (tally.failed) return 1;
      }
      return report.failed.length ? 1 : 0;
    },
  },
  stats: {
    usage: `stats [--json]
    Counts per content type, models, the newest upload and the catalog generation.`,
    options: { json: { type: 'boolean' } },
    positionals: 0,
    async run(_positionals, flags, { knex, io }) {
      const stats = await catalogStats(knex);
      io.out(flags.json ? JSON.stringify(stats, null, 2) : formatStats(stats));
      return 0;
    },
  },
  ...scheduleCommands,
  ...contentEditCommands,
  ...ingestWorkerCommands,
};
