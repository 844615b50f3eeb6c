import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { metricsEnv } from '@media-site/contracts/metrics-env';
import { databaseUrlFromEnv, mediaRootFromEnv } from '@media-site/db';
import { loadS3Settings, type S3Settings } from '@media-site/storage';
import type { EncodeSettings } from './derive';
import type { FfmpegTools } from './tools';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const X264_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'] as const;

/** The encoder's environment, merged into the operator CLI's schema (ops/src/commands/config.ts). */
export const encodeEnv = {
  ENCODE_CONCURRENCY: int(1, 64).default(1).describe('encode jobs running at once across all workers (a unique slot per running job)'),
  ENCODE_THREADS: int(0, 64).default(0).meta({ description: 'x264 threads per encoder', defaultText: '0 (ffmpeg decides)' }),
  ENCODE_PRESET: z.enum(X264_PRESETS).default('veryfast').describe('x264 preset'),
  ENCODE_NICE: int(0, 19).default(10).describe('scheduling priority (nice) of ffmpeg'),
  ENCODE_LEASE_SECONDS: int(2, 3600)
    .default(60)
    .describe("a running job's lease (renewed every quarter; expired = the worker died, the job is redone)"),
  ENCODE_MAX_ATTEMPTS: int(1, 20).default(3).describe('tries before a job fails'),
  ENCODER_SCRATCH_DIR: z.string().min(1).max(4096).optional().meta({
    description:
      'with `STORAGE=s3`: where a job downloads its original and writes its outputs before uploading them (one folder per job, removed afterwards), and where ingest makes thumbnails and frames before uploading them (one folder per run); room for an original plus its renditions per running job',
    defaultText: '`media-encoder` under the system temp folder',
  }),
};

/** Where ffmpeg and ffprobe are: the encoder and ingest (video frames) run them. */
export const toolsEnv = {
  FFMPEG_PATH: z.string().min(1).default('ffmpeg').describe('the ffmpeg ingest and the encoder run'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe').describe('the ffprobe ingest and the encoder run'),
};

export interface EncodeConfig {
  concurrency: number;
  leaseMs: number;
  maxAttempts: number;
  settings: EncodeSettings;
}

type EncodeEnv = z.infer<z.ZodObject<typeof encodeEnv>>;

export function encodeConfig(env: EncodeEnv, tools: { ffmpeg: string; ffprobe: string }): EncodeConfig {
  return {
    concurrency: env.ENCODE_CONCURRENCY,
    leaseMs: env.ENCODE_LEASE_SECONDS * 1000,
    maxAttempts: env.ENCODE_MAX_ATTEMPTS,
    settings: { ...tools, preset: env.ENCODE_PRESET, threads: env.ENCODE_THREADS, nice: env.ENCODE_NICE },
  };
}

/** The encoder service's own: its Prometheus port (encoder/src/metrics.ts). */
export const encoderServiceEnv = metricsEnv;

const encoderEnvSchema = z.object({ ...toolsEnv, ...encodeEnv, ...encoderServiceEnv });

export interface EncoderConfig {
  databaseUrl: string;
  mediaRoot: string;
  ffmpeg: FfmpegTools;
  encode: EncodeConfig;
  /** STORAGE=s3: originals come from and outputs go to this bucket; null: the MEDIA_ROOT tree. */
  storage: S3Settings | null;
  /** Per-job scratch folders go under it (STORAGE=s3 only). */
  scratchDir: string;
  /** Where /metrics answers; undefined: off. */
  metrics?: { port: number; host: string };
}

/** ENCODER_SCRATCH_DIR, or a folder under the system temp folder. */
export function scratchDirFrom(value: string | undefined): string {
  return resolve(value || join(tmpdir(), 'media-encoder'));
}

/** The stand-alone worker's settings (encoder/src/main.ts): the database, the media tree or bucket and the encode knobs. */
export function loadEncoderConfig(env: NodeJS.ProcessEnv): EncoderConfig {
  const parsed = encoderEnvSchema.safeParse(env);
  if (!parsed.success)
    throw new Error(`invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  const ffmpeg = { ffmpeg: parsed.data.FFMPEG_PATH, ffprobe: parsed.data.FFPROBE_PATH };
  return {
    databaseUrl: databaseUrlFromEnv(env),
    mediaRoot: resolve(mediaRootFromEnv(env)),
    ffmpeg,
    encode: encodeConfig(parsed.data, ffmpeg),
    storage: loadS3Settings(env),
    scratchDir: scratchDirFrom(parsed.data.ENCODER_SCRATCH_DIR),
    ...(parsed.data.METRICS_PORT === undefined ? {} : { metrics: { port: parsed.data.METRICS_PORT, host: parsed.data.METRICS_HOST } }),
  };
}
