import type { Knex } from 'knex';
import type { S3Settings } from '@media-site/storage';
import { RuleError } from '@media-site/db';
import { formatJobCounts, type JobStatus } from '@media-site/db/encode';
import { queuePaused } from '@media-site/db/queues';
import type { EncodeConfig } from './config';
import { progressReporter, type EncodeTally } from './progress-bar';
import { ffmpegWorks, type FfmpegTools } from './tools';
import { EncodeWorker, type WorkerEvent } from './worker';

/** What a worker run needs: the operator commands' context fits it as it is. */
export interface WorkContext {
  knex: Knex;
  /** `storage` (STORAGE=s3) and `scratchDir`: see EncoderConfig; without them the worker uses the MEDIA_ROOT tree. */
  config: { mediaRoot: string; ffmpeg: FfmpegTools; encode: EncodeConfig; storage?: S3Settings | null; scratchDir?: string };
  io: { err: (text: string) => void; write?: (text: string) => void; isTTY?: boolean };
}

/**
 * Runs a worker in this process until the queue (or the given jobs) is drained, or with `watch`
 * until SIGINT/SIGTERM, which hands running jobs back to the queue. Returns the tally.
 */
export async function workQueue(
  ctx: WorkContext,
  options: {
    ids?: readonly number[];
    watch?: boolean;
    quiet?: boolean;
    concurrency?: number;
    /** Also told every worker event (the encoder's metrics). */
    onEvent?: (event: WorkerEvent) => void;
  },
): Promise<EncodeTally> {
  const { knex, config, io } = ctx;
  // Without the tools every job would fail; they stay queued for a worker that has them.
  if (!(await ffmpegWorks(config.ffmpeg))) {
    throw new RuleError(
      'conflict',
      `cannot encode: ${config.ffmpeg.ffmpeg} / ${config.ffmpeg.ffprobe} do not run (install ffmpeg, or set FFMPEG_PATH / FFPROBE_PATH); jobs stay queued`,
    );
  }
  const reporter = progressReporter({ err: io.err, write: io.isTTY ? io.write : undefined }, { quiet: options.quiet });
  const worker = new EncodeWorker({
    knex,
    mediaRoot: config.mediaRoot,
    storage: config.storage,
    scratchDir: config.scratchDir,
    settings: config.encode.settings,
    concurrency: options.concurrency ?? config.encode.concurrency,
    leaseMs: config.encode.leaseMs,
    maxAttempts: config.encode.maxAttempts,
    watch: options.watch,
    pollMs: options.watch ? 2000 : 1000,
    ids: options.ids,
    onEvent: options.onEvent
      ? (event) => {
          reporter.onEvent(event);
          options.onEvent?.(event);
        }
      : reporter.onEvent,
  });
  // Every signal while running, not only the first: a second Ctrl-C or a supervisor's SIGTERM after
  // it must not end the process (the default action) before the running jobs are handed back.
  const stop = () => void worker.stop();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await worker.run();
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    reporter.finish();
  }
  if (!options.watch && (await queuePaused(knex, 'encode')))
    io.err("the encode queue is paused: its jobs wait until `ops queue resume encode` (or Resume on the console's Queues screen)");
  return reporter.tally;
}

/** The closing line of a run: what this worker did and what the queue holds now. */
export function tallyLine(tally: EncodeTally, counts: Record<JobStatus, number>): string {
  return `encoded ${tally.done} (${tally.seconds.toFixed(1)} s), ${tally.failed} failed; queue: ${formatJobCounts(counts)}`;
}
