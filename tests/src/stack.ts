import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFrontendIfNeeded, prepareData } from '../../scripts/lib/prepare';
import type { LogLine } from '../../scripts/lib/process';
import { startSite, type Site } from '../../scripts/lib/site';

export const CATALOG_FILE = 'catalog.sqlite';
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** Where the demo data comes from: the seed, the migrations, the first-run setup. */
const SEED_SOURCES = ['db/src', 'ops/src', 'scripts/lib'];

/** Every file under the seed sources, hashed: a change to any of them makes a new template. */
function seedSourcesHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.includes('.test.')) hash.update(relative(repoRoot, path)).update(readFileSync(path));
    }
  };
  for (const dir of SEED_SOURCES) walk(join(repoRoot, dir));
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | undefined;
/**
 * The demo catalog and media tree (1,400 pictures drawn by sharp, the clips by ffmpeg: 20-40 s of
 * CPU), made once per machine and seed version and copied into each stack's fresh folder.
 */
export function seededTemplate(log: (line: string) => void): Promise<string> {
  template ??= (async () => {
    const dir = join(tmpdir(), `media-site-demo-${seedSourcesHash()}`);
    if (existsSync(join(dir, '.complete'))) return dir;
    const build = mkdtempSync(join(tmpdir(), 'media-site-demo-build-'));
    await prepareData(`sqlite:${join(build, CATALOG_FILE)}`, join(build, 'media'), log);
    writeFileSync(join(build, '.complete'), '');
    try {
      renameSync(build, dir);
    } catch {
      // Another process finished the same template first.
      rmSync(build, { recursive: true, force: true });
    }
    return dir;
  })();
  return template;
}

/**
 * What every stack copies, made before the first test file starts (the tests project's global
 * setup): the SPA build and the seeded demo template. Files that run side by side then only read them.
 */
export async function prepareStackSources(log: (line: string) => void = () => {}): Promise<void> {
  buildFrontendIfNeeded(log);
  await seededTemplate(log);
}

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
    /** Counts requests: this service logs a line per request it answers (LOG_LEVEL=info), pushed to `lines`. */
    accessLog?: { service: 'bff' | 'media'; lines: string[] };
    /** A catalog database other than the fresh SQLite file (migrated and seeded here). */
    databaseUrl?: string;
    redisUrl?: string;
    variantCacheDir?: string;
    /** Run the encode worker (renditions of the demo videos) beside the services. */
    encoder?: boolean;
    /** A data folder made elsewhere (a restore), used as it is: no demo copied or seeded. Removed on stop. */
    dataDir?: string;
  } = {},
): Promise<Stack> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'stack-'));
  const databaseUrl = options.databaseUrl ?? `sqlite:${join(dataDir, CATALOG_FILE)}`;
  const mediaRoot = join(dataDir, 'media');
  const quiet = process.env.STACK_LOG !== '1';
  const { accessLog } = options;
  const serviceEnv = accessLog
    ? { ...options.serviceEnv, [accessLog.service]: { ...options.serviceEnv?.[accessLog.service], LOG_LEVEL: 'info' } }
    : options.serviceEnv;
  const log = quiet ? () => {} : console.log;
  buildFrontendIfNeeded(log);
  if (!options.dataDir) {
    // A copy of the seeded template (the SQLite catalog too, unless another database is given); then
    // the same first-run setup as `npm start`, which finds everything in place and only checks it.
    const template = await seededTemplate(log);
    for (const entry of readdirSync(template)) {
      if (entry === '.complete' || (options.databaseUrl && entry.startsWith(CATALOG_FILE))) continue;
      cpSync(join(template, entry), join(dataDir, entry), { recursive: true, preserveTimestamps: true });
    }
    await prepareData(databaseUrl, mediaRoot, log);
  }
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
    serviceEnv,
    onLine: (name, line) => {
      options.onLine?.(name, line);
      if (name === accessLog?.service) accessLog.lines.push(line);
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
