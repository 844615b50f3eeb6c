import { parseArgs } from 'node:util';
import { createKnex, migrateLatest, RuleError } from '@media-site/db';
import { jobCounts } from '@media-site/db/encode';
import { loadEncoderConfig } from './config';
import { tallyLine, workQueue } from './work-queue';
import { createEncoderMetrics, startMetricsServer } from './metrics';

// The encoder service: works the encode queue in this process (compose's `encoder`). The operator's
// `ops encode` runs the same worker once by hand, with --scan and --retry-failed besides.
const USAGE = `usage: encoder [--watch] [--quiet]
  --watch  keep waiting for new jobs (the long-running service); without it, return when the queue is empty
  --quiet  failures and the summary only
Environment: DATABASE_URL, MEDIA_ROOT, FFMPEG_PATH / FFPROBE_PATH, ENCODE_CONCURRENCY / ENCODE_THREADS /
ENCODE_PRESET / ENCODE_NICE / ENCODE_LEASE_SECONDS / ENCODE_MAX_ATTEMPTS; STORAGE=s3 with the S3_* variables
and ENCODER_SCRATCH_DIR to work through the bucket; METRICS_PORT / METRICS_HOST for Prometheus (see README).`;

async function main(argv: string[]): Promise<number> {
  let flags;
  try {
    flags = parseArgs({
      args: argv,
      options: { watch: { type: 'boolean' }, quiet: { type: 'boolean' }, help: { type: 'boolean' } },
      strict: true,
    }).values;
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const config = loadEncoderConfig(process.env);
  const knex = createKnex(config.databaseUrl);
  try {
    // A fresh embedded database has no tables yet; migrating is idempotent and cheap.
    await migrateLatest(knex);
    const io = {
      err: (text: string) => console.error(text),
      write: (text: string) => process.stderr.write(text),
      isTTY: process.stderr.isTTY,
    };
    const metrics = config.metrics ? createEncoderMetrics() : undefined;
    const server =
      metrics && config.metrics ? await startMetricsServer(metrics.registry, config.metrics.port, config.metrics.host) : undefined;
    const tally = await workQueue(
      { knex, config, io },
      { watch: Boolean(flags.watch), quiet: Boolean(flags.quiet), onEvent: metrics?.onEvent },
    ).finally(() => server?.close());
    console.log(tallyLine(tally, await jobCounts(knex)));
    return tally.failed ? 1 : 0;
  } catch (err) {
    console.error(err instanceof RuleError ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await knex.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
