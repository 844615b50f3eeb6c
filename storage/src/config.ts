import { z } from 'zod';
import type { S3Settings } from './s3';

const bool = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return false;
    if (/^(?:1|true|yes|on)$/i.test(v)) return true;
    if (/^(?:0|false|no|off)$/i.test(v)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be true or false' });
    return z.NEVER;
  });

/** STORAGE and the S3_* variables; read by the media service and by the catalog commands (ingest). */
export const storageEnv = {
  STORAGE: z
    .enum(['local', 's3'])
    .default('local')
    .describe(
      '`s3`: originals (photos, free photos, videos, VODs) live in an S3-compatible bucket; ingest uploads them and the media service redirects members to short-lived presigned URLs (media-service/README.md, "Originals in object storage"); thumbnails, renditions and previews stay under `MEDIA_ROOT`',
    ),
  S3_ENDPOINT: z
    .url()
    .optional()
    .meta({ description: 'an S3-compatible server, `https://host[:port]`', defaultText: 'unset (AWS for the region)' }),
  S3_PUBLIC_ENDPOINT: z.url().optional().meta({
    description: "the bucket's address as clients reach it, when the service uses an internal one (presigned URLs name it)",
    defaultText: 'S3_ENDPOINT',
  }),
  S3_BUCKET: z.string().optional().meta({
    description: 'the bucket; object keys are the media paths (`video/<folder>/<name>`)',
    defaultText: 'unset (required with `STORAGE=s3`)',
  }),
  S3_REGION: z.string().min(1).default('us-east-1').describe('the signing region'),
  S3_ACCESS_KEY_ID: z.string().optional().meta({
    description:
      'with S3_SECRET_ACCESS_KEY, both or neither; never commit them; read-only credentials are enough for the media service, ingest needs `PutObject`',
    defaultText: "unset (the SDK's default chain)",
  }),
  S3_SECRET_ACCESS_KEY: z
    .string()
    .optional()
    .meta({ description: 'the secret of S3_ACCESS_KEY_ID', defaultText: "unset (the SDK's default chain)" }),
  S3_FORCE_PATH_STYLE: bool.meta({
    description: '`true`: path-style `endpoint/bucket/key` URLs (most self-hosted servers) instead of `bucket.endpoint/key`',
    defaultText: 'false',
  }),
  S3_PRESIGN_SECONDS: z.coerce
    .number()
    .int()
    .min(5)
    .max(3600)
    .default(60)
    .describe('lifetime of the presigned URL a member is redirected to (5–3600 s)'),
  S3_MULTIPART_THRESHOLD_MB: z.coerce
    .number()
    .int()
    .min(5)
    .max(5120)
    .default(64)
    .describe('files larger than this many MiB are uploaded as a multipart upload (5–5120; a single PUT takes at most 5 GiB)'),
  S3_PART_SIZE_MB: z.coerce
    .number()
    .int()
    .min(5)
    .max(5120)
    .default(16)
    .describe('part size of a multipart upload in MiB (5–5120), raised for a file that would need over 10,000 parts'),
};

const schema = z.object(storageEnv);
type StorageEnv = z.infer<typeof schema>;

/** null for the local tree; problems are `VARIABLE: message` lines. */
export function s3SettingsFrom(c: StorageEnv): { settings: S3Settings | null; problems: string[] } {
  if (c.STORAGE === 'local') return { settings: null, problems: [] };
  const problems: string[] = [];
  if (!c.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE=s3');
  if (Boolean(c.S3_ACCESS_KEY_ID) !== Boolean(c.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both, or neither (the SDK then uses its default credential chain)');
  }
  if (problems.length) return { settings: null, problems };
  return {
    settings: {
      endpoint: c.S3_ENDPOINT,
      publicEndpoint: c.S3_PUBLIC_ENDPOINT,
      bucket: c.S3_BUCKET!,
      region: c.S3_REGION,
      accessKeyId: c.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: c.S3_SECRET_ACCESS_KEY || undefined,
      forcePathStyle: c.S3_FORCE_PATH_STYLE,
      presignSeconds: c.S3_PRESIGN_SECONDS,
      multipartThreshold: c.S3_MULTIPART_THRESHOLD_MB * 1024 ** 2,
      partSize: c.S3_PART_SIZE_MB * 1024 ** 2,
    },
    problems: [],
  };
}

/** For the catalog commands: throws one error listing every problem. */
export function loadS3Settings(env: NodeJS.ProcessEnv): S3Settings | null {
  const parsed = schema.safeParse(env);
  const problems = parsed.success
    ? s3SettingsFrom(parsed.data).problems
    : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  if (problems.length || !parsed.success) throw new Error(`invalid storage configuration:\n  ${problems.join('\n  ')}`);
  return s3SettingsFrom(parsed.data).settings;
}
