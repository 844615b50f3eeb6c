import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, so the embedded data folder is the same whichever workspace runs a command. */
export const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export const defaultDataDir = resolve(repoRoot, '.data');

export function databaseUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL || `sqlite:${resolve(env.DATA_DIR || defaultDataDir, 'catalog.sqlite')}`;
}

export function mediaRootFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.MEDIA_ROOT || resolve(env.DATA_DIR || defaultDataDir, 'media');
}
