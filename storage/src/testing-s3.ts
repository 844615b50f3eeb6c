import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

const V4_QUERY_ENCODING = '[param, value].map(encodeURIComponent)';
const RESOURCE_ENCODING = 'canonicalizedResource = canonicalizedResource\n';

/**
 * s3rver canonicalises a presigned URL's query values with encodeURIComponent, which leaves
 * `'()*!` as they are, where SigV4 (S3, the SDK) encodes every byte but `A-Za-z0-9-_.~`
 * (RFC 3986): a presigned `response-content-disposition` of `attachment; filename*=UTF-8''…` then
 * fails its signature there and works on S3. It also drops the trailing `/` of a bucket-level
 * path-style request (`GET /bucket/?list-type=2`, as SDK v3 sends ListObjectsV2) from the canonical
 * path, so every listing fails its signature. This loads s3rver's authentication middleware with
 * those two expressions corrected (the RFC 3986 encoder is s3rver's own, which it uses for paths)
 * before s3rver itself loads it; it throws if they are no longer there (s3rver changed).
 */
function loadS3rverWithRfc3986Queries(require: NodeJS.Require): void {
  const file = require.resolve('@20minutes/s3rver/lib/middleware/authentication.js');
  if (require.cache[file]) return;
  const source = readFileSync(file, 'utf8');
  if (!source.includes(V4_QUERY_ENCODING) || !source.includes(RESOURCE_ENCODING))
    throw new Error(`${file}: the canonicalisation to correct is not there`);
  const patched = new Module(file) as Module & { _compile(code: string, filename: string): void; loaded: boolean };
  patched.filename = file;
  patched.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const corrected = source
    .replace(V4_QUERY_ENCODING, '[param, value].map(encodeURIComponentRFC3986)')
    .replace(
      RESOURCE_ENCODING,
      "if (ctx.params.bucket && !ctx.params.key && ctx.path.endsWith('/')) canonicalizedResource += '/';\n" + RESOURCE_ENCODING,
    );
  patched._compile(corrected, file);
  patched.loaded = true;
  require.cache[file] = patched;
}

/**
 * For tests: an S3-compatible server in this process (s3rver, the maintained @20minutes fork: real
 * HTTP, SigV4 header and presigned-query signatures checked against S3RVER/S3RVER, expiry checked,
 * objects on disk in a temp folder), with one bucket, on 127.0.0.1:`port`.
 */
export async function startTestS3(port: number, bucket = 'originals'): Promise<TestS3> {
  const require = createRequire(import.meta.url);
  loadS3rverWithRfc3986Queries(require);
  const S3rver = require('@20minutes/s3rver') as S3rverClass;
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  // No resetOnClose: s3rver's reset uses rmdirSync's recursive option, gone in Node 25; stop() removes the folder.
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    directory,
    silent: true,
    resetOnClose: false,
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
