import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createKnex } from '@media-site/db';
import { DEMO_MEMBER, ensureDemo, ensureDemoMember } from '@media-site/ops';
import type { S3Settings } from '@media-site/storage';
import { repoRoot } from './site';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the SPA, then the operator console (`--mode admin`), when frontend/dist is missing or older than its sources. */
export function buildFrontendIfNeeded(log: (line: string) => void = console.log): void {
  // Both pages: a member-only `vite build` (frontend/src/bundleSize.test.ts) empties dist, console included.
  const pages = ['index.html', 'admin.html'].map((page) => resolve(repoRoot, 'frontend/dist', page));
  const sources = [
    resolve(repoRoot, 'frontend/src'),
    resolve(repoRoot, 'frontend/public'),
    resolve(repoRoot, 'frontend/index.html'),
    resolve(repoRoot, 'frontend/admin.html'),
  ];
  const builtAt = Math.min(...pages.map((page) => (existsSync(page) ? statSync(page).mtimeMs : 0)));
  const changedAt = Math.max(...sources.filter(existsSync).map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));
  if (builtAt > changedAt) return;
  log('building the web app (frontend/dist)...');
  // The console's pass second: the member pass empties dist first.
  for (const mode of ['production', 'admin']) {
    const result = spawnSync(
      process.execPath,
      [resolve(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--mode', mode, '--logLevel', 'warn'],
      {
        cwd: resolve(repoRoot, 'frontend'),
        stdio: 'inherit',
        // Always the production build: inside vitest NODE_ENV is `test`, which would give React's
        // development build (effects run twice, every page asks the bff twice).
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    if (result.status !== 0) throw new Error(`frontend build failed (${mode})`);
  }
}

/**
 * Migrates the database and, when the catalog is empty, seeds the demo catalog and media tree: under
 * `mediaRoot`, or with `storage` (STORAGE=s3) in the bucket, generated under `scratchDir` first.
 */
export async function prepareData(
  databaseUrl: string,
  mediaRoot: string,
  log: (line: string) => void = console.log,
  bucket?: { storage: S3Settings; scratchDir?: string },
): Promise<void> {
  const knex = createKnex(databaseUrl);
  try {
    const demo = await ensureDemo({ knex, mediaRoot, log, ...bucket });
    // Only beside the demo catalog: a real catalog never gets a member with a published password.
    if (demo.media && (await ensureDemoMember(knex)).created) log(`demo member created: ${DEMO_MEMBER.username} / ${DEMO_MEMBER.password}`);
  } finally {
    await knex.destroy();
  }
}
