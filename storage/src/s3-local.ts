/**
 * `node --import tsx storage/src/s3-local.ts`: the local S3-compatible server (s3rver with the
 * corrections in testing-s3.ts) as a process, for trying STORAGE=s3 on one machine and for the
 * multi-host compose overlay's stand-in bucket. Settings: S3_LOCAL_ADDRESS (127.0.0.1),
 * S3_LOCAL_PORT (4569), S3_LOCAL_DIR (required: where the objects live), S3_BUCKET (originals).
 * Its keys are s3rver's fixed S3RVER/S3RVER: a stand-in, never a production store.
 */
import { startLocalS3 } from './testing-s3';

const PORT_MAX = 65535;

function settingsFrom(env: NodeJS.ProcessEnv) {
  const port = Number(env.S3_LOCAL_PORT ?? 4569);
  if (!Number.isInteger(port) || port < 1 || port > PORT_MAX)
    throw new Error(`S3_LOCAL_PORT must be a port number, not ${env.S3_LOCAL_PORT}`);
  const directory = env.S3_LOCAL_DIR;
  if (!directory) throw new Error('set S3_LOCAL_DIR to the folder that keeps the objects');
  const bucket = env.S3_BUCKET ?? 'originals';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`S3_BUCKET is not a bucket name: ${bucket}`);
  return { address: env.S3_LOCAL_ADDRESS ?? '127.0.0.1', port, directory, bucket };
}

async function main(): Promise<void> {
  const settings = settingsFrom(process.env);
  const s3 = await startLocalS3(settings);
  console.log(
    JSON.stringify({
      msg: 'local S3 listening',
      address: settings.address,
      port: settings.port,
      bucket: s3.bucket,
      directory: settings.directory,
    }),
  );
  const stop = () => void s3.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
