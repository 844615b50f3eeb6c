import { z } from 'zod';
import type { EncodeSettings } from './derive';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const X264_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'] as const;

/** The encoder's environment, merged into the operator CLI's schema (db/src/ingest/cli.ts). */
export const encodeEnv = {
  ENCODE_CONCURRENCY: int(1, 64).default(1).describe('encode jobs running at once across all workers (a unique slot per running job)'),
  ENCODE_THREADS: int(0, 64).default(0).meta({ description: 'x264 threads per encoder', defaultText: '0 (ffmpeg decides)' }),
  ENCODE_PRESET: z.enum(X264_PRESETS).default('veryfast').describe('x264 preset'),
  ENCODE_NICE: int(0, 19).default(10).describe('scheduling priority (nice) of ffmpeg'),
  ENCODE_LEASE_SECONDS: int(2, 3600)
    .default(60)
    .describe('a running job\'s lease (renewed every quarter; expired = the worker died, the job is redone)'),
  ENCODE_MAX_ATTEMPTS: int(1, 20).default(3).describe('tries before a job fails'),
};

export interface EncodeConfig {
  concurrency: number;
  leaseMs: number;
  maxAttempts: number;
  settings: EncodeSettings;
}

type EncodeEnv = { [K in keyof typeof encodeEnv]: z.infer<(typeof encodeEnv)[K]> };

export function encodeConfig(env: EncodeEnv, tools: { ffmpeg: string; ffprobe: string }): EncodeConfig {
  return {
    concurrency: env.ENCODE_CONCURRENCY,
    leaseMs: env.ENCODE_LEASE_SECONDS * 1000,
    maxAttempts: env.ENCODE_MAX_ATTEMPTS,
    settings: { ...tools, preset: env.ENCODE_PRESET, threads: env.ENCODE_THREADS, nice: env.ENCODE_NICE },
  };
}
