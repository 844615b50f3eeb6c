import { createPrivateKey } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { placeholderReason } from '@media-site/contracts/secret-policy';
import { withoutTrailingSlashes, type CloudFrontSettings } from './cdn';
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
      '`s3`: every media family (originals, thumbnails, renditions, previews) lives in an S3-compatible bucket under its media path; the media service streams public files and set ZIPs from it and redirects members to short-lived presigned URLs (media-service/README.md, "Media in object storage"); `MEDIA_ROOT` may then be empty',
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
  S3_SECRET_ACCESS_KEY: z.string().optional().meta({
    description: 'the secret of S3_ACCESS_KEY_ID',
    production: "not the local S3 server's fixed `S3RVER` (`npm start` with `STORAGE=s3` and no `S3_ENDPOINT`), nor a placeholder",
    defaultText: "unset (the SDK's default chain)",
  }),
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
  CDN_SIGNING: z
    .enum(['none', 'cloudfront'])
    .default('none')
    .describe(
      '`cloudfront` (with `STORAGE=s3`): members are redirected to a CloudFront signed URL (canned policy, S3_PRESIGN_SECONDS) for the same object key instead of an S3 presigned URL (media-service/README.md, "CloudFront in front of the bucket")',
    ),
  CLOUDFRONT_URL: z.url().max(200).optional().meta({
    description:
      "the distribution's base URL, `https://dxxxx.cloudfront.net` or its custom domain (https; http only for a loopback test edge)",
    defaultText: 'unset (required with `CDN_SIGNING=cloudfront`)',
  }),
  CLOUDFRONT_KEY_PAIR_ID: z
    .string()
    .regex(/^[A-Z0-9]{8,64}$/, 'a CloudFront public key id: 8–64 capital letters and digits')
    .optional()
    .meta({
      description: "the id of the public key in the distribution's trusted key group",
      defaultText: 'unset (required with `CDN_SIGNING=cloudfront`)',
    }),
  CLOUDFRONT_PRIVATE_KEY_FILE: z.string().min(1).max(4096).optional().meta({
    description:
      'path of the matching RSA private key (PEM); must not be readable by every user (`chmod 600`); never commit it (`openssl genrsa -out key.pem 2048`)',
    defaultText: 'unset (required with `CDN_SIGNING=cloudfront`)',
  }),
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
/**
 * The fixed keys of the local S3 server (s3rver: `npm start` with STORAGE=s3 and no S3_ENDPOINT,
 * tests, the compose stand-in bucket): anyone can read and write a bucket that takes them.
 */
export const LOCAL_S3_KEY = 'S3RVER';

/** The variables that point a process at a local S3 server: its fixed keys, path-style addresses. */
export function localS3Env(endpoint: string, bucket: string) {
  return {
    STORAGE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: LOCAL_S3_KEY,
    S3_SECRET_ACCESS_KEY: LOCAL_S3_KEY,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/**
 * null for the local tree; problems are `VARIABLE: message` lines. `nodeEnv` production refuses the
 * local S3 server's fixed keys and published placeholders, as the other secrets are refused.
 */
export function s3SettingsFrom(c: StorageEnv, nodeEnv?: string): { settings: S3Settings | null; problems: string[] } {
  if (c.STORAGE === 'local') return { settings: null, problems: [] };
  const problems: string[] = [];
  if (!c.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE=s3');
  if (Boolean(c.S3_ACCESS_KEY_ID) !== Boolean(c.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both, or neither (the SDK then uses its default credential chain)');
  }
  if (nodeEnv?.trim().toLowerCase() === 'production' && c.S3_SECRET_ACCESS_KEY) {
    const reason =
      c.S3_SECRET_ACCESS_KEY === LOCAL_S3_KEY
        ? "is the local S3 server's fixed key (local use only)"
        : placeholderReason(c.S3_SECRET_ACCESS_KEY);
    if (reason) problems.push(`S3_SECRET_ACCESS_KEY: ${reason}; production needs the bucket's own credentials`);
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

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** A PEM RSA key is a few KiB; anything far larger is not one. */
const KEY_FILE_MAX = 64 * 1024;

/** Reads and checks the private key file; a problem line, or the PEM. */
function readPrivateKey(file: string): { pem?: string; problem?: string } {
  const name = 'CLOUDFRONT_PRIVATE_KEY_FILE';
  let st;
  try {
    st = statSync(file);
  } catch (err) {
    return { problem: `${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  if (!st.isFile()) return { problem: `${name}: ${file} is not a file` };
  if (st.mode & 0o004) {
    return { problem: `${name}: ${file} is readable by every user (mode ${(st.mode & 0o777).toString(8)}); chmod 600 it` };
  }
  if (st.size > KEY_FILE_MAX) return { problem: `${name}: ${file} is ${st.size} bytes, not a PEM key (at most ${KEY_FILE_MAX})` };
  let pem;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    return { problem: `${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa')
      return { problem: `${name}: ${file} holds a ${key.asymmetricKeyType} key; CloudFront signs with RSA` };
  } catch {
    return { problem: `${name}: ${file} is not a PEM private key` };
  }
  return { pem };
}

/** null without CDN_SIGNING; problems are `VARIABLE: message` lines. Reads the key file once. */
export function cdnSettingsFrom(c: StorageEnv): { settings: CloudFrontSettings | null; problems: string[] } {
  if (c.CDN_SIGNING === 'none') return { settings: null, problems: [] };
  const problems: string[] = [];
  if (c.STORAGE !== 's3') problems.push('CDN_SIGNING: cloudfront needs STORAGE=s3 (the distribution fronts the bucket)');
  if (!c.CLOUDFRONT_URL) problems.push('CLOUDFRONT_URL: required when CDN_SIGNING=cloudfront');
  else {
    const url = new URL(c.CLOUDFRONT_URL);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
      problems.push('CLOUDFRONT_URL: must be https (http only for a loopback test edge)');
    if (url.search || url.hash || url.username || url.password)
      problems.push('CLOUDFRONT_URL: a base URL without query, fragment or credentials');
  }
  if (!c.CLOUDFRONT_KEY_PAIR_ID) problems.push('CLOUDFRONT_KEY_PAIR_ID: required when CDN_SIGNING=cloudfront');
  let pem: string | undefined;
  if (!c.CLOUDFRONT_PRIVATE_KEY_FILE) problems.push('CLOUDFRONT_PRIVATE_KEY_FILE: required when CDN_SIGNING=cloudfront');
  else {
    const key = readPrivateKey(c.CLOUDFRONT_PRIVATE_KEY_FILE);
    if (key.problem) problems.push(key.problem);
    pem = key.pem;
  }
  if (problems.length) return { settings: null, problems };
  return {
    settings: { baseUrl: withoutTrailingSlashes(c.CLOUDFRONT_URL!), keyPairId: c.CLOUDFRONT_KEY_PAIR_ID!, privateKey: pem! },
    problems: [],
  };
}

/** For the catalog commands: throws one error listing every problem. */
export function loadS3Settings(env: NodeJS.ProcessEnv): S3Settings | null {
  const parsed = schema.safeParse(env);
  const problems = parsed.success
    ? s3SettingsFrom(parsed.data, env.NODE_ENV).problems
    : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  if (problems.length || !parsed.success) throw new Error(`invalid storage configuration:\n  ${problems.join('\n  ')}`);
  return s3SettingsFrom(parsed.data, env.NODE_ENV).settings;
}
