import type { Knex } from 'knex';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resolve } from 'node:path';
import { z } from 'zod';
import { loadS3Settings, S3Originals, type S3Settings } from '@media-site/storage';
import { createKnex } from '../knex';
import { redisHaProblem, type RedisHaSettings } from '../redis-ha';
import { migrateLatest } from '../migrate';
import { databaseUrlFromEnv, mediaRootFromEnv } from '../cli/env';
import { encodeCommands, workQueue } from '../encode/commands';
import { encodeConfig, encodeEnv, type EncodeConfig } from '../encode/config';
import { memberCommands } from '../members/commands';
import { RuleError } from '../rule-error';
import { reportCommands } from '../reports/commands';
import { FolderError, ingestFolder } from './ingest';
import { publishGeneration } from './publish';
import { formatReport } from './report';
import { catalogStats, formatStats } from './stats';

export class UsageError extends Error {}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Raw stderr writes (the encode progress bar), used when isTTY. */
  write?: (text: string) => void;
  isTTY?: boolean;
  /** An open database (tests); otherwise one is opened from DATABASE_URL and closed afterwards. */
  knex?: Knex;
  /** Unix ms; tests pin the clock (report deadlines). */
  now?: () => number;
  /** What `member add --password-stdin` reads (tests); otherwise process.stdin. */
  stdin?: () => Promise<string>;
}

/** The operator commands' environment (scripts/config-docs.ts documents it). */
export const envSchema = z.object({
  REDIS_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^rediss?:\/\//.test(v), 'must start with redis://')
    .describe('`redis://host:6379`: where a catalog change is announced to every bff; unset = the bffs see it at their next database poll'),
  REDIS_SENTINELS: z.string().optional().describe('Redis behind Sentinel: `host:port,host:port` of the sentinels (as for the bff)'),
  REDIS_SENTINEL_NAME: z.string().optional().describe('the master\'s name behind Sentinel'),
  CACHE_KEY_PREFIX: z.string().max(50).default('media:').describe('Redis key and channel prefix (the same as the bff\'s)'),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg').describe('the ffmpeg ingest and the encoder run'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe').describe('the ffprobe ingest and the encoder run'),
  ...encodeEnv,
});

export interface CliConfig {
  databaseUrl: string;
  mediaRoot: string;
  redisUrl: string | undefined;
  /** Sentinel addresses and master name (REDIS_SENTINELS, REDIS_SENTINEL_NAME), when Redis is behind Sentinel. */
  redisHa: RedisHaSettings;
  cacheKeyPrefix: string;
  ffmpeg: { ffmpeg: string; ffprobe: string };
  encode: EncodeConfig;
  /** STORAGE=s3 and its S3_* settings: ingest uploads originals there; null: the local tree. */
  s3: S3Settings | null;
}

export function loadCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new Error(`invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  const c = parsed.data;
  const haProblem = redisHaProblem(c);
  if (haProblem) throw new Error(`invalid environment:\n  ${haProblem.path}: ${haProblem.message}`);
  return {
    databaseUrl: databaseUrlFromEnv(env),
    mediaRoot: resolve(mediaRootFromEnv(env)),
    redisUrl: c.REDIS_URL,
    redisHa: { REDIS_SENTINELS: c.REDIS_SENTINELS, REDIS_SENTINEL_NAME: c.REDIS_SENTINEL_NAME },
    cacheKeyPrefix: c.CACHE_KEY_PREFIX,
    ffmpeg: { ffmpeg: c.FFMPEG_PATH, ffprobe: c.FFPROBE_PATH },
    encode: encodeConfig(c, { ffmpeg: c.FFMPEG_PATH, ffprobe: c.FFPROBE_PATH }),
    s3: loadS3Settings(env),
  };
}

export interface CommandContext {
  knex: Knex;
  config: CliConfig;
  io: CliIo;
}

export interface Command {
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** How many positional arguments the command takes. */
  positionals: number;
  /** Fewer positionals accepted (subcommands with an optional argument); defaults to `positionals`. */
  minPositionals?: number;
  run(positionals: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number>;
}

// The operator commands: an entry here with its usage, flags and run function; the dispatcher,
// exit codes and help follow.
const commands: Record<string, Command> = {
  ingest: {
    usage: `ingest <folder> [--link] [--dry-run] [--wait] [--json] [--quiet]
    Adds or updates catalog rows and media from a folder laid out as docs/operate.md describes,
    and queues the encoding of its videos and VODs (see encode).
    --link     hard-link files into MEDIA_ROOT instead of copying (same filesystem only)
    --dry-run  validate and report what would change; write nothing
    --wait     then encode this folder's videos and VODs here, with a progress bar
    --json     print the report as JSON
    --quiet    no per-item progress lines`,
    options: { link: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, wait: { type: 'boolean' }, json: { type: 'boolean' }, quiet: { type: 'boolean' } },
    positionals: 1,
    async run([folder], flags, ctx) {
      const { knex, config, io } = ctx;
      const { redisUrl, redisHa, cacheKeyPrefix } = config;
      const originals = config.s3 && !flags['dry-run'] ? new S3Originals(config.s3) : null;
      const report = await ingestFolder({
        knex,
        // npm runs workspace scripts from db/; INIT_CWD is where the operator typed the command.
        folder: resolve(io.env.INIT_CWD ?? process.cwd(), folder as string),
        mediaRoot: config.mediaRoot,
        mode: flags.link ? 'link' : 'copy',
        originals,
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
  ...encodeCommands,
  ...reportCommands,
  ...memberCommands,
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
};

export const USAGE = `usage: npm run catalog -- <command> [options]

${Object.values(commands)
  .map((c) => `  ${c.usage}`)
  .join('\n\n')}

Environment: DATABASE_URL (default: embedded SQLite under .data), MEDIA_ROOT (default: .data/media),
REDIS_URL (optional: announce catalog changes to running bff instances), CACHE_KEY_PREFIX (media:),
STORAGE (local | s3: ingest uploads originals to S3_BUCKET at S3_ENDPOINT, see media-service/README.md),
FFMPEG_PATH / FFPROBE_PATH (ffmpeg, ffprobe), ENCODE_CONCURRENCY / ENCODE_THREADS / ENCODE_PRESET /
ENCODE_NICE / ENCODE_LEASE_SECONDS / ENCODE_MAX_ATTEMPTS (the encoder, see README), REPORT_HOLIDAYS (YYYY-MM-DD,... not business days).
Exit codes: 0 ok, 1 failure, 2 usage.`;

function parseCommand(argv: string[]): { command: Command; positionals: string[]; flags: Record<string, unknown> } {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : commands[name];
  if (!command) throw new UsageError(name === undefined ? 'no command given' : `unknown command: ${name}`);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const count = parsed.positionals.length;
  if (count > command.positionals || count < (command.minPositionals ?? command.positionals)) {
    throw new UsageError(`${name} takes ${command.positionals} argument(s), got ${parsed.positionals.length}`);
  }
  return { command, positionals: parsed.positionals, flags: parsed.values };
}

/** Runs one operator command and returns its exit code: 0 ok, 1 failure, 2 usage. */
export async function runCatalogCommand(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.out(USAGE);
    return 0;
  }
  let knex: Knex | undefined;
  try {
    const { command, positionals, flags } = parseCommand(argv);
    const config = loadCliConfig(io.env);
    knex = io.knex ?? createKnex(config.databaseUrl);
    // A fresh embedded database has no tables yet; migrating is idempotent and cheap.
    if (!io.knex) await migrateLatest(knex);
    return await command.run(positionals, flags, { knex, config, io });
  } catch (err) {
    if (err instanceof RuleError) {
      io.err(err.message);
      return err.kind === 'bad_input' ? 2 : 1;
    }
    if (err instanceof UsageError || err instanceof FolderError) {
      io.err(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    if (knex && !io.knex) await knex.destroy();
  }
}
