import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { embeddedDefaults } from '@media-site/contracts/embedded-defaults';
import { keyRingProblems, nodeEnvSchema, placeholderReason, weakKeyReason } from '@media-site/contracts/secret-policy';
import { DEV_TOKEN_KEYS, parseKeyRing } from '@media-site/contracts/token';
import { s3SettingsFrom, storageEnv } from '@media-site/storage/config';
import type { S3Settings } from '@media-site/storage/s3';
import type { KeyRing } from '@media-site/contracts/token';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  NODE_ENV: nodeEnvSchema,
  MEDIA_HOST: z.string().min(1).default('127.0.0.1'),
  MEDIA_PORT: int(0, 65535).default(3002),
  MEDIA_ROOT: z.string().min(1),
  VARIANT_CACHE_DIR: z.string().min(1),
  MEDIA_TOKEN_KEYS: z.string().default(DEV_TOKEN_KEYS),
  MEDIA_OFFLOAD: z.enum(['none', 'nginx']).default('none'),
  MEDIA_OFFLOAD_PREFIX: z.string().regex(/^\/[\w/-]*\/$/).default('/_protected/'),
  MEDIA_REVOCATION_URL: z.url().optional(),
  MEDIA_REVOCATION_INTERVAL_S: int(5, 3600).default(60),
  /** Defaults to /internal/media-takedowns beside MEDIA_REVOCATION_URL (both are the bff's). */
  MEDIA_TAKEDOWN_URL: z.url().optional(),
  // At most 10: with the front door's 5 s thumbnail freshness a takedown must reach visitors within 15 s.
  MEDIA_TAKEDOWN_INTERVAL_S: int(1, 10).default(5),
  VARIANT_CONCURRENCY: int(1, 64).default(Math.max(1, availableParallelism())),
  VARIANT_QUEUE_MAX: int(0, 10_000).default(64),
  VARIANT_MAX_PIXELS: int(1, 268_402_689).default(40_000_000),
  VARIANT_MIN_FREE_BYTES: int(0, Number.MAX_SAFE_INTEGER).default(256 * 1024 * 1024),
  VARIANT_MEMORY_CACHE_BYTES: int(0, 4 * 1024 ** 3).default(64 * 1024 * 1024),
  /** Called when a takedown or restore takes effect here (src/access/purge.ts). */
  PURGE_WEBHOOK_URL: z.url().optional(),
  PURGE_COMMAND: z.string().min(1).optional(),
  PURGE_ATTEMPTS: int(1, 20).default(5),
  /** Secret of the edge (CDN) URLs: nginx secure_link md5 (src/access/edge-url.ts); unset = no edge URLs. */
  EDGE_URL_SECRET: z.string().min(16).optional(),
  MEDIA_SHUTDOWN_GRACE_MS: int(0, 3_600_000).default(30_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Prometheus /metrics on its own port; unset = off, 0 = any free port. */
  METRICS_PORT: int(0, 65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  ...storageEnv,
});

/** The settings the service runs on: the schema's values, typed from it (z.infer), renamed for the code. */
function toMediaConfig(c: z.infer<typeof schema>, keys: KeyRing, s3: S3Settings | null) {
  return {
    host: c.MEDIA_HOST,
    port: c.MEDIA_PORT,
    mediaRoot: resolve(c.MEDIA_ROOT),
    variantCacheDir: resolve(c.VARIANT_CACHE_DIR),
    keys,
    offload: c.MEDIA_OFFLOAD,
    offloadPrefix: c.MEDIA_OFFLOAD_PREFIX,
    revocationUrl: c.MEDIA_REVOCATION_URL,
    revocationIntervalSeconds: c.MEDIA_REVOCATION_INTERVAL_S,
    takedownUrl: c.MEDIA_TAKEDOWN_URL ?? (c.MEDIA_REVOCATION_URL ? new URL('/internal/media-takedowns', c.MEDIA_REVOCATION_URL).toString() : undefined),
    takedownIntervalSeconds: c.MEDIA_TAKEDOWN_INTERVAL_S,
    variantConcurrency: c.VARIANT_CONCURRENCY,
    variantQueueMax: c.VARIANT_QUEUE_MAX,
    variantMaxPixels: c.VARIANT_MAX_PIXELS,
    variantMinFreeBytes: c.VARIANT_MIN_FREE_BYTES,
    variantMemoryCacheBytes: c.VARIANT_MEMORY_CACHE_BYTES,
    shutdownGraceMs: c.MEDIA_SHUTDOWN_GRACE_MS,
    purge: { webhookUrl: c.PURGE_WEBHOOK_URL, command: c.PURGE_COMMAND, attempts: c.PURGE_ATTEMPTS },
    edgeSecret: c.EDGE_URL_SECRET,
    logLevel: c.LOG_LEVEL as string,
    metricsPort: c.METRICS_PORT,
    metricsHost: c.METRICS_HOST,
    /** STORAGE=s3: originals (photos, freephotos, video, vod) are in this bucket; null: the local tree. */
    s3,
  };
}

export type MediaConfig = ReturnType<typeof toMediaConfig>;

/** Reads the environment once; throws one error listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): MediaConfig {
  const embedded = embeddedDefaults(env);
  const withDefaults: NodeJS.ProcessEnv = { ...env, MEDIA_ROOT: embedded.mediaRoot, VARIANT_CACHE_DIR: embedded.variantCacheDir };
  // Compose passes these empty when unset: empty is off.
  for (const name of ['PURGE_WEBHOOK_URL', 'PURGE_COMMAND', 'EDGE_URL_SECRET']) if (withDefaults[name] === '') delete withDefaults[name];
  const parsed = schema.safeParse(withDefaults);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  let keys: KeyRing | undefined;
  let s3: S3Settings | null = null;
  if (parsed.success) {
    const storage = s3SettingsFrom(parsed.data);
    problems.push(...storage.problems);
    s3 = storage.settings;
    try {
      keys = parseKeyRing(parsed.data.MEDIA_TOKEN_KEYS);
    } catch (err) {
      problems.push(`MEDIA_TOKEN_KEYS: ${(err as Error).message}`);
    }
    if (keys && parsed.data.NODE_ENV === 'production') {
      for (const problem of keyRingProblems(parsed.data.MEDIA_TOKEN_KEYS)) problems.push(`MEDIA_TOKEN_KEYS: ${problem}`);
    }
    const edge = parsed.data.EDGE_URL_SECRET;
    const edgeProblem = edge && parsed.data.NODE_ENV === 'production' ? (placeholderReason(edge) ?? weakKeyReason(edge)) : undefined;
    if (edgeProblem) problems.push(`EDGE_URL_SECRET: ${edgeProblem} (e.g. openssl rand -hex 32)`);
    // Without the bff's lists nothing revoked or taken down would ever be refused.
    if (parsed.data.NODE_ENV === 'production' && !parsed.data.MEDIA_REVOCATION_URL) {
      problems.push('MEDIA_REVOCATION_URL: required in production (the bff\'s /internal/media-revocations; the takedown list is polled beside it)');
    }
  }
  if (!parsed.success || !keys || problems.length > 0) {
    throw new Error(`Invalid media-service configuration:\n  ${problems.join('\n  ')}`);
  }
  return toMediaConfig(parsed.data, keys, s3);
}
