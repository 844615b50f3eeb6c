import { resolve } from 'node:path';
import { z } from 'zod';
import { siteNameSetting } from '@media-site/contracts/site-name';
import { DEV_ADMIN_SECRET_KEYS, keyRingProblems, nodeEnvSchema } from '@media-site/contracts/secret-policy';
import { parseKeyRing, type KeyRing } from '@media-site/contracts/token';
import { embeddedDefaults, runningLocalS3 } from '@media-site/contracts/embedded-defaults';
import { databaseUrlFromEnv, mediaRootFromEnv, redisHaProblem, type RedisHaSettings } from '@media-site/db';
import { encodeConfig, encodeEnv, scratchDirFrom, toolsEnv, type EncodeConfig } from '@media-site/encoder';
import { loadS3Settings, type S3Settings } from '@media-site/storage';
import { localS3Env } from '@media-site/storage/config';
import { parseSchedule } from '../backup/schedule';

/** The operator commands' environment (scripts/config-docs.ts documents it). */
export const envSchema = z.object({
  REDIS_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^rediss?:\/\//.test(v), 'must start with redis://')
    .describe('`redis://host:6379`: where a catalog change is announced to every bff; unset = the bffs see it at their next database poll'),
  REDIS_SENTINELS: z.string().optional().describe('Redis behind Sentinel: `host:port,host:port` of the sentinels (as for the bff)'),
  REDIS_SENTINEL_NAME: z.string().optional().describe("the master's name behind Sentinel"),
  CACHE_KEY_PREFIX: z.string().max(50).default('media:').describe("Redis key and channel prefix (the same as the bff's)"),
  SITE_NAME: siteNameSetting("the issuer `admin add` writes into an admin's TOTP enrolment URI (the bff's SITE_NAME)"),
  NODE_ENV: nodeEnvSchema.meta({
    description:
      '`production`, `development` or `test`, as for the bff; production refuses the local `ADMIN_SECRET_KEYS` and weak keys (compose: leave it unset for the operator, whose keys compose requires)',
    defaultText: 'development',
  }),
  ADMIN_SECRET_KEYS: z.string().default(DEV_ADMIN_SECRET_KEYS).meta({
    description:
      "the bff's `ADMIN_SECRET_KEYS` (the same value): `admin add` seals the new admin's TOTP secret with its first key, `admin rekey` re-seals every row under it; production refuses the local default and weak keys",
    defaultText: 'a dev key (local only)',
    production: 'required',
  }),
  BACKUP_DIR: z.string().optional().meta({
    description: 'where `backup` writes its sets and `restore` reads them (a folder; mount it from another disk, or copy it off the host)',
    defaultText: '`backups` in the data folder',
  }),
  BACKUP_SCHEDULE: z
    .string()
    .default('03:30')
    .refine((v) => {
      try {
        parseSchedule(v);
        return true;
      } catch {
        return false;
      }
    }, 'must be times of day as HH:MM (UTC), comma-separated')
    .describe("when `backup --scheduled` (compose's `backup` service) writes a set: UTC times of day as HH:MM, comma-separated"),
  BACKUP_KEEP_DAILY: z.coerce.number().int().min(1).max(366).default(7).describe('`backup` keeps the newest set of each of this many days'),
  BACKUP_KEEP_WEEKLY: z.coerce
    .number()
    .int()
    .min(0)
    .max(520)
    .default(4)
    .describe('`backup` keeps the newest set of each of this many weeks (Monday to Sunday, UTC)'),
  ...toolsEnv,
  ...encodeEnv,
});

export interface CliConfig {
  databaseUrl: string;
  mediaRoot: string;
  redisUrl: string | undefined;
  /** Sentinel addresses and master name (REDIS_SENTINELS, REDIS_SENTINEL_NAME), when Redis is behind Sentinel. */
  redisHa: RedisHaSettings;
  cacheKeyPrefix: string;
  /** SITE_NAME: what an authenticator app calls the console's TOTP entry. */
  siteName: string;
  /** ADMIN_SECRET_KEYS: seals admins' TOTP secrets (the bff's ring). */
  adminSecretKeys: KeyRing;
  ffmpeg: { ffmpeg: string; ffprobe: string };
  encode: EncodeConfig;
  /**
   * STORAGE=s3 and its S3_* settings (the encoder's name for them too): ingest and encode read and
   * write every media file there and nothing under MEDIA_ROOT; null: the local tree.
   */
  storage: S3Settings | null;
  /** ENCODER_SCRATCH_DIR: per-run (ingest) and per-job (encode) scratch folders go under it, STORAGE=s3 only. */
  scratchDir: string;
  /** INGEST_ROOT (the bff's): the folders the console may queue for `ingest-worker`. */
  ingestRoot: string;
  /** BACKUP_DIR and retention (BACKUP_KEEP_DAILY, BACKUP_KEEP_WEEKLY). */
  backup: { dir: string; keepDaily: number; keepWeekly: number; schedule: number[] };
}

export function loadCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success)
    throw new Error(`invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  const c = parsed.data;
  const haProblem = redisHaProblem(c);
  if (haProblem) throw new Error(`invalid environment:\n  ${haProblem.path}: ${haProblem.message}`);
  const keyProblems = adminKeyProblems(c.ADMIN_SECRET_KEYS, c.NODE_ENV === 'production');
  if (keyProblems.length > 0) throw new Error(`invalid environment:\n${keyProblems.map((p) => `  ADMIN_SECRET_KEYS: ${p}`).join('\n')}`);
  return {
    databaseUrl: databaseUrlFromEnv(env),
    mediaRoot: resolve(mediaRootFromEnv(env)),
    redisUrl: c.REDIS_URL,
    redisHa: { REDIS_SENTINELS: c.REDIS_SENTINELS, REDIS_SENTINEL_NAME: c.REDIS_SENTINEL_NAME },
    cacheKeyPrefix: c.CACHE_KEY_PREFIX,
    siteName: c.SITE_NAME,
    adminSecretKeys: parseKeyRing(c.ADMIN_SECRET_KEYS),
    ffmpeg: { ffmpeg: c.FFMPEG_PATH, ffprobe: c.FFPROBE_PATH },
    encode: encodeConfig(c, { ffmpeg: c.FFMPEG_PATH, ffprobe: c.FFPROBE_PATH }),
    storage: loadS3Settings(withLocalS3(env)),
    scratchDir: scratchDirFrom(c.ENCODER_SCRATCH_DIR),
    ingestRoot: embeddedDefaults(env).ingestRoot,
    backup: {
      dir: embeddedDefaults(env).backupDir,
      keepDaily: c.BACKUP_KEEP_DAILY,
      keepWeekly: c.BACKUP_KEEP_WEEKLY,
      schedule: parseSchedule(c.BACKUP_SCHEDULE),
    },
  };
}

/**
 * STORAGE=s3 with neither S3_ENDPOINT nor DATABASE_URL: the bucket of the `npm start` running on
 * this data folder (its local S3 server, recorded there with its endpoint and bucket; the keys are
 * the server's fixed ones), as the commands find that run's database. Nothing running: a clear
 * error when S3_BUCKET is unset too; with S3_BUCKET alone, AWS through the SDK's chain as before.
 */
export function withLocalS3(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.STORAGE !== 's3' || env.S3_ENDPOINT || env.DATABASE_URL) return env;
  const file = embeddedDefaults(env).localS3File;
  const local = runningLocalS3(file);
  if (!local) {
    if (env.S3_BUCKET) return env;
    throw new Error(
      `invalid storage configuration:\n  STORAGE=s3 without S3_ENDPOINT or S3_BUCKET, and no npm start with STORAGE=s3 is running on this data folder (${file}): start it, or set S3_ENDPOINT and S3_BUCKET`,
    );
  }
  return { ...env, ...localS3Env(local.endpoint, local.bucket) };
}

/** ADMIN_SECRET_KEYS as the bff checks it: a ring that parses, and in production no local default or weak key. */
function adminKeyProblems(spec: string, production: boolean): string[] {
  try {
    parseKeyRing(spec);
  } catch (err) {
    return [(err as Error).message];
  }
  return production ? keyRingProblems(spec, DEV_ADMIN_SECRET_KEYS) : [];
}
