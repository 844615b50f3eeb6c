import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root (the folder whose package.json lists the workspaces), found upwards from this
 * module, so the embedded data folder is the same whichever workspace runs a command (npm runs
 * workspace scripts from their own folder) and whether this runs as source or inside a bundle at
 * another depth (bff/dist/main.js, db/dist/cli/migrate.js). The working directory if none is found.
 */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      if ('workspaces' in (JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8')) as object)) return dir;
    } catch {
      // no package.json here, or not JSON: keep looking
    }
    if (dirname(dir) === dir) return process.cwd();
  }
}

export const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));

export interface EmbeddedDefaults {
  /** DATA_DIR, default `.data` in the repository; a relative value is taken from the repository root. */
  dataDir: string;
  /** DATABASE_URL, default the SQLite file `catalog.sqlite` in the data folder. */
  databaseUrl: string;
  /** MEDIA_ROOT, default `media` in the data folder. */
  mediaRoot: string;
  /** VARIANT_CACHE_DIR, default `variants` in the data folder. */
  variantCacheDir: string;
  /** INGEST_ROOT, default `incoming` in the data folder: the folders the console may ingest. */
  ingestRoot: string;
  /**
   * Where `npm start` with STORAGE=s3 and no S3_ENDPOINT records its local S3 server (endpoint,
   * bucket, pid) while it runs, so an operator command beside it finds that bucket.
   */
  localS3File: string;
  /** BACKUP_DIR, default `backups` in the data folder: where `ops backup` writes its sets. */
  backupDir: string;
}

/**
 * Where `npm start` and every operator command keep their data when nothing is configured: one
 * answer for all of them. An empty variable counts as unset (compose passes `VAR=` through).
 */
export function embeddedDefaults(env: Readonly<Record<string, string | undefined>> = process.env): EmbeddedDefaults {
  const dataDir = resolve(repoRoot, env.DATA_DIR || '.data');
  return {
    dataDir,
    databaseUrl: env.DATABASE_URL || `sqlite:${resolve(dataDir, 'catalog.sqlite')}`,
    mediaRoot: resolve(repoRoot, env.MEDIA_ROOT || resolve(dataDir, 'media')),
    variantCacheDir: resolve(repoRoot, env.VARIANT_CACHE_DIR || resolve(dataDir, 'variants')),
    ingestRoot: resolve(repoRoot, env.INGEST_ROOT || resolve(dataDir, 'incoming')),
    localS3File: resolve(dataDir, 'local-s3.json'),
    backupDir: resolve(repoRoot, env.BACKUP_DIR || resolve(dataDir, 'backups')),
  };
}

/** What `npm start` records in `localS3File` while its local S3 server runs (the keys are the server's fixed, published ones). */
export interface LocalS3Record {
  endpoint: string;
  bucket: string;
  /** The server's process: a record whose process is gone is stale (an `npm start` killed with SIGKILL). */
  pid: number;
}

/** The running local S3 server `npm start` recorded in `file`, or null (none recorded, unreadable, or its process gone). */
export function runningLocalS3(file: string): LocalS3Record | null {
  let record: Partial<LocalS3Record>;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalS3Record>;
  } catch {
    return null;
  }
  if (typeof record.endpoint !== 'string' || typeof record.bucket !== 'string' || !Number.isInteger(record.pid) || record.pid! <= 0)
    return null;
  try {
    process.kill(record.pid!, 0);
  } catch (err) {
    // EPERM: alive, another user's; ESRCH: gone.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return { endpoint: record.endpoint, bucket: record.bucket, pid: record.pid! };
}
