import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { embeddedDefaults } from '@media-site/contracts/embedded-defaults';
import { keyRingProblems, nodeEnvSchema, placeholderReason, weakKeyReason } from '@media-site/contracts/secret-policy';
import { DEV_TOKEN_KEYS, parseKeyRing } from '@media-site/contracts/token';
import { cdnSettingsFrom, s3SettingsFrom, storageEnv } from '@media-site/storage/config';
import type { CloudFrontSettings } from '@media-site/storage/cdn';
import type { S3Settings } from '@media-site/storage/s3';
import type { KeyRing } from '@media-site/contracts/token';
import { metricsEnv } from '@media-site/contracts/metrics-env';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** The media service's environment (scripts/config-docs.ts documents it). */
export const configSchema = z.object({
  NODE_ENV: nodeEnvSchema,
  MEDIA_HOST: z.string().min(1).default('127.0.0.1').describe("the media service's listen address"),
  MEDIA_PORT: int(0, 65535).default(3002).describe("the media service's listen port"),
  MEDIA_ROOT: z.string().min(1).meta({
    description:
      'the media tree: originals (read only for the service) and everything ingest and the encoder make; also read by the operator commands; with `STORAGE=s3` nothing reads or writes there (the service, ingest and the encoder use the bucket; it may be empty or absent)',
    defaultText: '`$DATA_DIR/media`',
  }),
  VARIANT_CACHE_DIR: z.string().min(1).meta({ description: 'resized thumbnails', defaultText: '`$DATA_DIR/variants`' }),
  MEDIA_TOKEN_KEYS: z.string().default(DEV_TOKEN_KEYS).meta({
    description:
      "the bff's media token keys, `kid:secret,kid2:secret2`, all of them verify; production: every secret 32 random bytes (`openssl rand -base64 48`)",
    defaultText: 'a dev key (local only)',
    production: 'required',
  }),
  MEDIA_OFFLOAD: z.enum(['none', 'nginx']).default('none').describe('`nginx`: answer `X-Accel-Redirect` and let nginx send the bytes'),
  MEDIA_OFFLOAD_PREFIX: z
    .string()
    .regex(/^\/[\w/-]*\/$/)
    .default('/_protected/')
    .describe('the internal nginx location `X-Accel-Redirect` names'),
  MEDIA_REVOCATION_URL: z.url().optional().meta({
    description:
      "the bff's revocation list (`/internal/media-revocations`); without it nothing revoked would be refused; `npm start` sets it",
    production: 'required',
  }),
  // At most 5: with a poll's answer time (it gives up after 5 s) what a revoked or signed-out member
  // was given stops within 10 s.
  MEDIA_REVOCATION_INTERVAL_S: int(1, 5)
    .default(5)
    .describe(
      "how often the revocation list is polled (ETag/304), at most 5 s: a revoked, disabled or signed-out-everywhere member keeps media access this long plus the poll's answer time (under 10 s)",
    ),
  MEDIA_TAKEDOWN_URL: z.url().optional().meta({
    description: "the bff's takedown list",
    defaultText: '`/internal/media-takedowns` beside MEDIA_REVOCATION_URL',
  }),
  // At most 10: with the front door's 5 s thumbnail freshness a takedown must reach visitors within 15 s.
  MEDIA_TAKEDOWN_INTERVAL_S: int(1, 10).default(5).describe('how often the takedown list is polled (ETag/304), at most 10 s'),
  VARIANT_CONCURRENCY: int(1, 64)
    .default(Math.max(1, availableParallelism()))
    .meta({ description: 'sharp jobs at once', defaultText: 'the number of cores' }),
  VARIANT_QUEUE_MAX: int(0, 10_000)
    .default(64)
    .describe('sharp jobs waiting beyond `VARIANT_CONCURRENCY`; more answer 503 + `Retry-After`'),
  VARIANT_MAX_PIXELS: int(1, 268_402_689).default(40_000_000).describe('input pixel limit'),
  VARIANT_MIN_FREE_BYTES: int(0, Number.MAX_SAFE_INTEGER)
    .default(256 * 1024 * 1024)
    .meta({ description: 'below this free space on the variant disk, serve originals', defaultText: '256 MiB' }),
  VARIANT_MEMORY_CACHE_BYTES: int(0, 4 * 1024 ** 3)
    .default(64 * 1024 * 1024)
    .meta({ description: 'hot variants kept in memory', defaultText: '64 MiB' }),
  PURGE_WEBHOOK_URL: z
    .url()
    .optional()
    .describe(
      'called when a takedown or restore takes effect on this media service (`src/access/purge.ts`): POST `{ event, prefixes, urls }`; retried after 1, 2, 4, ... s; one log line per outcome; empty is off',
    ),
  PURGE_COMMAND: z
    .string()
    .min(1)
    .optional()
    .describe('the same as `PURGE_WEBHOOK_URL` as a shell command, with the URLs as `$@` and `PURGE_EVENT`; empty is off'),
  PURGE_ATTEMPTS: int(1, 20).default(5).describe('tries of each purge call'),
  EDGE_URL_SECRET: z
    .string()
    .min(16)
    .optional()
    .describe(
      "the secret of edge (CDN) URLs, nginx `secure_link` md5 (`contracts/src/edge-url.ts`), the same value as the bff's; production refuses placeholders and under 32 random bytes; unset or empty: `/edge/` answers 404",
    ),
  MEDIA_SHUTDOWN_GRACE_MS: int(0, 3_600_000).default(30_000).describe('how long SIGTERM waits for in-flight requests'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino level'),
  ...metricsEnv,
  ...storageEnv,
});

/** The settings the service runs on: the schema's values, typed from it (z.infer), renamed for the code. */
function toMediaConfig(c: z.infer<typeof configSchema>, keys: KeyRing, s3: S3Settings | null, cdn: CloudFrontSettings | null) {
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
    takedownUrl:
      c.MEDIA_TAKEDOWN_URL ??
      (c.MEDIA_REVOCATION_URL ? new URL('/internal/media-takedowns', c.MEDIA_REVOCATION_URL).toString() : undefined),
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
    /** STORAGE=s3: every media family is in this bucket; null: the local tree. */
    s3,
    /** CDN_SIGNING=cloudfront: members are redirected to CloudFront signed URLs for the bucket's objects; null: S3 presigned URLs. */
    cdn,
  };
}

export type MediaConfig = ReturnType<typeof toMediaConfig>;

/** Reads the environment once; throws one error listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): MediaConfig {
  const embedded = embeddedDefaults(env);
  const withDefaults: NodeJS.ProcessEnv = { ...env, MEDIA_ROOT: embedded.mediaRoot, VARIANT_CACHE_DIR: embedded.variantCacheDir };
  // Compose passes these empty when unset: empty is off.
  for (const name of [
    'PURGE_WEBHOOK_URL',
    'PURGE_COMMAND',
    'EDGE_URL_SECRET',
    'CDN_SIGNING',
    'CLOUDFRONT_URL',
    'CLOUDFRONT_KEY_PAIR_ID',
    'CLOUDFRONT_PRIVATE_KEY_FILE',
  ])
    if (withDefaults[name] === '') delete withDefaults[name];
  const parsed = configSchema.safeParse(withDefaults);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  let keys: KeyRing | undefined;
  let s3: S3Settings | null = null;
  let cdn: CloudFrontSettings | null = null;
  if (parsed.success) {
    const storage = s3SettingsFrom(parsed.data, parsed.data.NODE_ENV);
    problems.push(...storage.problems);
    s3 = storage.settings;
    const signing = cdnSettingsFrom(parsed.data);
    problems.push(...signing.problems);
    cdn = signing.settings;
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
      problems.push(
        "MEDIA_REVOCATION_URL: required in production (the bff's /internal/media-revocations; the takedown list is polled beside it)",
      );
    }
  }
  if (!parsed.success || !keys || problems.length > 0) {
    throw new Error(`Invalid media-service configuration:\n  ${problems.join('\n  ')}`);
  }
  return toMediaConfig(parsed.data, keys, s3, cdn);
}
