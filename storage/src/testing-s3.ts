import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Settings } from './s3';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  resetOnClose: boolean;
  allowMismatchedSignatures: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** What STORAGE=s3 needs to reach this server. */
  env: Record<string, string>;
  settings: S3Settings;
  stop(): Promise<void>;
}

/**
 * For tests: an S3-compatible server in this process (s3rver, the maintained @20minutes fork: real
 * HTTP, SigV4 header and presigned-query signatures checked against S3RVER/S3RVER, expiry checked,
 * objects on disk in a temp folder), with one bucket, on 127.0.0.1:`port`.
 */
export interface TestS3Options {
  /**
   * s3rver canonicalises query values with encodeURIComponent, which leaves the `'` and `*` of
   * `filename*=UTF-8''` unescaped where S3 and the SDK escape them, so it refuses a correct signature
   * over a download's response-content-disposition. true: it accepts every well-formed signature
   * (the CloudFront edge test, whose origin requests carry that override).
   */
  allowMismatchedSignatures?: boolean;
}

export async function startTestS3(port: number, bucket = 'originals', options: TestS3Options = {}): Promise<TestS3> {
  const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverClass;
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  // No resetOnClose: s3rver's reset uses rmdirSync's recursive option, gone in Node 25; stop() removes the folder.
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    directory,
    silent: true,
    resetOnClose: false,
    allowMismatchedSignatures: options.allowMismatchedSignatures ?? false,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const env = {
    STORAGE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const settings: S3Settings = {
    endpoint,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    presignSeconds: 60,
  };
  return {
    endpoint,
    bucket,
    env,
    settings,
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
