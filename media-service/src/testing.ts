import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig } from './config';
import { startMedia, type RunningMedia, type StartOptions } from './server';

export { raw, type RawResponse } from './testing-http';

export async function put(root: string, relative: string, data: Buffer | string): Promise<string> {
  const file = join(root, relative);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, data);
  return file;
}

/** Writes each file of `files` (path under `root` → contents), in order. */
export async function putAll(root: string, files: Record<string, Buffer | string>): Promise<void> {
  for (const [relative, data] of Object.entries(files)) await put(root, relative, data);
}

export interface TempMedia {
  dir: string;
  root: string;
  media: RunningMedia;
  stop(): Promise<void>;
}

/** For tests: a temp MEDIA_ROOT (filled by `populate`) and a media service in this process on an OS port. */
export async function startTempMedia(
  env: Record<string, string>,
  options: StartOptions = {},
  populate: (root: string) => Promise<void> = async () => {},
): Promise<TempMedia> {
  const dir = await mkdtemp(join(tmpdir(), 'media-test-'));
  const root = join(dir, 'media');
  await mkdir(root, { recursive: true });
  await populate(root);
  const config = loadConfig({
    MEDIA_ROOT: root,
    VARIANT_CACHE_DIR: join(dir, 'variants'),
    MEDIA_PORT: '0',
    LOG_LEVEL: 'silent',
    VARIANT_MIN_FREE_BYTES: '0',
    ...env,
  });
  const media = await startMedia(config, options);
  return {
    dir,
    root,
    media,
    stop: async () => {
      await media.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
