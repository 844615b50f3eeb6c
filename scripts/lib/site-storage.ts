import { rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { embeddedDefaults, type LocalS3Record } from '@media-site/contracts/embedded-defaults';
import { loadS3Settings, S3Originals, type S3Settings } from '@media-site/storage';
import { LOCAL_S3_KEY, localS3Env } from '@media-site/storage/config';
import { freePort, spawnTs, type Child, type LogLine } from './process';

/** The local S3 server's process entry point, through the storage workspace's exports. */
const localS3Entry = createRequire(import.meta.url).resolve('@media-site/storage/s3-local');

export interface SiteStorage {
  settings: S3Settings;
  /** STORAGE and S3_* for every service (the local server's address and keys when it was started here), MEDIA_ORIGINS for nginx's CSP. */
  env: Record<string, string>;
  /** The local S3 server when this started one (no S3_ENDPOINT), with its objects folder. */
  local?: { child: Child; directory: string; endpoint: string };
  stop(): Promise<void>;
}

/** Until the bucket answers (a HeadObject of a key no media has: 404 is an answer), or the child exits. */
async function waitForBucket(settings: S3Settings, child: Child, timeoutMs = 30_000): Promise<void> {
  const bucket = new S3Originals(settings);
  let exited = false;
  void child.exited.then(() => (exited = true));
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  try {
    while (Date.now() < deadline) {
      if (exited) throw new Error('the local S3 server exited before it answered');
      try {
        await bucket.head('.readyz-probe');
        return;
      } catch (err) {
        last = (err as Error).message;
      }
      await sleep(100);
    }
    throw new Error(`the local S3 server did not answer within ${timeoutMs} ms (last try: ${last})`);
  } finally {
    bucket.close();
  }
}

/**
 * `npm start` with STORAGE=s3: the bucket the site runs from. With S3_ENDPOINT (or AWS through the
 * SDK's chain, when S3_BUCKET names one) that bucket, checked like every service checks it. Without
 * S3_ENDPOINT, the local S3 server (storage/src/s3-local.ts) as a child process keeping its objects
 * under `<dataDir>/s3`, with its fixed keys: local use only, so refused with NODE_ENV=production.
 * null for STORAGE=local.
 */
export async function startSiteStorage(env: NodeJS.ProcessEnv, dataDir: string, onLine: LogLine): Promise<SiteStorage | null> {
  if ((env.STORAGE ?? 'local') !== 's3') return null;
  if (env.S3_ENDPOINT) {
    const settings = loadS3Settings(env);
    if (!settings) return null;
    return { settings, env: { MEDIA_ORIGINS: env.MEDIA_ORIGINS || mediaOrigins(settings, env) }, stop: async () => {} };
  }
  if (env.NODE_ENV?.trim().toLowerCase() === 'production')
    throw new Error(
      'STORAGE=s3 without S3_ENDPOINT starts the local S3 server, whose keys are fixed and published (local use only): refused with NODE_ENV=production; set S3_ENDPOINT, S3_BUCKET and the bucket’s own S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY',
    );
  const port = await freePort();
  const directory = resolve(dataDir, 's3');
  const bucket = env.S3_BUCKET || 'media';
  const child = spawnTs(
    's3',
    localS3Entry,
    { ...env, S3_LOCAL_ADDRESS: '127.0.0.1', S3_LOCAL_PORT: String(port), S3_LOCAL_DIR: directory, S3_BUCKET: bucket },
    onLine,
  );
  const endpoint = `http://127.0.0.1:${port}`;
  const localEnv = localS3Env(endpoint, bucket);
  try {
    const settings = loadS3Settings({ ...env, ...localEnv });
    if (!settings) throw new Error('STORAGE=s3 settings missing');
    await waitForBucket(settings, child);
    // For the operator commands beside this run (`STORAGE=s3 npm run ops -- jobs`): no secret in it,
    // the keys are the local server's fixed ones.
    const record = embeddedDefaults({ ...env, DATA_DIR: dataDir }).localS3File;
    const recorded: LocalS3Record = { endpoint, bucket, pid: child.proc.pid ?? 0 };
    await writeFile(record, `${JSON.stringify(recorded)}\n`);
    return {
      settings,
      env: { ...localEnv, MEDIA_ORIGINS: env.MEDIA_ORIGINS || mediaOrigins(settings, env) },
      local: { child, directory, endpoint },
      stop: async () => {
        await rm(record, { force: true });
        await child.stop();
      },
    };
  } catch (err) {
    await child.stop();
    throw err;
  }
}

/**
 * The origins browsers fetch members' media from after the media service's 302 (nginx's CSP,
 * MEDIA_ORIGINS): the CloudFront distribution when it signs, else the bucket's public endpoint, with
 * the bucket in the host unless path-style.
 */
export function mediaOrigins(settings: S3Settings, env: NodeJS.ProcessEnv): string {
  if (env.CDN_SIGNING === 'cloudfront' && env.CLOUDFRONT_URL) return new URL(env.CLOUDFRONT_URL).origin;
  const endpoint = settings.publicEndpoint ?? settings.endpoint;
  if (!endpoint) return `https://${settings.bucket}.s3.${settings.region}.amazonaws.com`;
  const url = new URL(endpoint);
  return settings.forcePathStyle ? url.origin : `${url.protocol}//${settings.bucket}.${url.host}`;
}

/** What `npm start` prints about the bucket. */
export function describeSiteStorage(storage: SiteStorage): string {
  if (!storage.local) return `Media are in the bucket ${storage.settings.bucket} at ${storage.settings.endpoint ?? 'AWS S3'} (STORAGE=s3).`;
  return [
    `Media are in the bucket ${storage.settings.bucket} of the local S3 server started for this run at ${storage.local.endpoint}`,
    `(objects under ${join(storage.local.directory, storage.settings.bucket)}; stopped with the site). Its keys are the fixed`,
    `${LOCAL_S3_KEY} / ${LOCAL_S3_KEY} of s3rver: local use only. Set S3_ENDPOINT and the S3_* variables to use your own bucket.`,
  ].join('\n');
}
