import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFrontendIfNeeded, prepareData } from '../../scripts/lib/prepare';
import type { LogLine } from '../../scripts/lib/process';
import { startSite, type Site } from '../../scripts/lib/site';

export interface Stack extends Site {
  baseUrl: string;
  dataDir: string;
  mediaRoot: string;
  databaseUrl: string;
}

/**
 * The whole site for cross-service tests: a fresh data folder with the seeded demo catalog (SQLite)
 * and media tree, the real bff and media service, and a real nginx with the repo's config (the Node
 * dev proxy only where nginx is not installed). Logs go to the returned lines unless STACK_LOG=1.
 */
export async function startStack(
  options: {
    env?: NodeJS.ProcessEnv;
    /** Variables for one service only. */
    serviceEnv?: { bff?: NodeJS.ProcessEnv; media?: NodeJS.ProcessEnv };
    frontDoor?: 'auto' | 'nginx' | 'node';
    /** Receives every service log line (e.g. to scan them). */
    onLine?: LogLine;
    /** A catalog database other than the fresh SQLite file (migrated and seeded here). */
    databaseUrl?: string;
    redisUrl?: string;
    variantCacheDir?: string;
    /** Run the encode worker (renditions of the demo videos) beside the services. */
    encoder?: boolean;
  } = {},
): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'stack-'));
  const databaseUrl = options.databaseUrl ?? `sqlite:${join(dataDir, 'catalog.sqlite')}`;
  const mediaRoot = join(dataDir, 'media');
  const quiet = process.env.STACK_LOG !== '1';
  const log = quiet ? () => {} : console.log;
  buildFrontendIfNeeded(log);
  await prepareData(databaseUrl, mediaRoot, log);
  const site = await startSite({
    port: 0,
    dataDir,
    databaseUrl,
    mediaRoot,
    redisUrl: options.redisUrl,
    variantCacheDir: options.variantCacheDir,
    frontDoor: options.frontDoor ?? 'auto',
    encoder: options.encoder,
    env: { LOG_LEVEL: quiet ? 'warn' : 'info', ...options.env },
    serviceEnv: options.serviceEnv,
    onLine: (name, line) => {
      options.onLine?.(name, line);
      if (!quiet) console.log(`[${name}] ${line}`);
    },
  });
  return {
    ...site,
    baseUrl: site.url,
    dataDir,
    mediaRoot,
    databaseUrl,
    async stop() {
      await site.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
