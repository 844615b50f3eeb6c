import { z } from 'zod';
import type { EncodeSettings } from './derive';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const X264_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'] as const;

/** The encoder's environment, merged into the operator CLI's schema (db/src/ingest/cli.ts). */
export const encodeEnv = {
  ENCODE_CONCURRENCY: int(1, 64).default(1),
  ENCODE_THREADS: int(0, 64).default(0),
  ENCODE_PRESET: z.enum(X264_PRESETS).default('veryfast'),
  ENCODE_NICE: int(0, 19).default(10),
  ENCODE_LEASE_SECONDS: int(2, 3600).default(60),
  ENCODE_MAX_ATTEMPTS: int(1, 20).default(3),
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
