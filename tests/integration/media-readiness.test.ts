import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { prepareData } from '../../scripts/lib/prepare';
import { freePort, spawnTs, waitHealthy, type Child } from '../../scripts/lib/process';
import { repoRoot } from '../../scripts/lib/site';
import { catalogCli } from '../src/catalog-cli';

// The real media service started while its bff is unreachable (compose restarting the bff, a
// network split): it must not serve a single file it cannot yet tell is taken down or revoked,
// and must become ready on its own, quickly, once the real bff answers.
let dir: string;
let databaseUrl: string;
let mediaRoot: string;
let bffPort: number;
let mediaUrl: string;
const children: Child[] = [];
const lines: string[] = [];

interface ListState {
  source: string;
  loaded: boolean;
  ageSeconds: number | null;
  maxAgeSeconds: number | null;
}
interface Readiness {
  status: string;
  error?: { code: string; message: string };
  lists: { takedowns: ListState; revocations: ListState };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'media-ready-'));
  databaseUrl = `sqlite:${join(dir, 'catalog.sqlite')}`;
  mediaRoot = join(dir, 'media');
  await prepareData(databaseUrl, mediaRoot, () => {});
  bffPort = await freePort();
  const mediaPort = await freePort();
  mediaUrl = `http://127.0.0.1:${mediaPort}`;
  const media = spawnTs(
    'media',
    resolve(repoRoot, 'media-service/src/main.ts'),
    {
      ...process.env,
      MEDIA_ROOT: mediaRoot,
      VARIANT_CACHE_DIR: join(dir, 'variants'),
      MEDIA_PORT: String(mediaPort),
      MEDIA_REVOCATION_URL: `http://127.0.0.1:${bffPort}/internal/media-revocations`,
      LOG_LEVEL: 'info',
    },
    (_name, line) => lines.push(line),
  );
  children.push(media);
  await waitHealthy(`${mediaUrl}/healthz`, media);
});

afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function twoVideos(): Promise<string[]> {
  const knex = createKnex(databaseUrl);
  try {
    return ((await knex('videos').orderBy('id').limit(2).select('path')) as { path: string }[]).map((v) => v.path);
  } finally {
    await knex.destroy();
  }
}

const readyz = async () => {
  const res = await fetch(`${mediaUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as Readiness };
};

describe('a media service whose bff is unreachable', () => {
  it('is not ready and refuses media (a taken-down item included), then becomes ready when the bff appears', async () => {
    const [video = '', kept = ''] = await twoVideos();
    const down = await catalogCli({ databaseUrl, mediaRoot }, 'takedown', `/video/${video}`, '--by', 'ops', '--reason', 'readiness test');
    expect(down.code, down.err).toBe(0);
    const gone = `${mediaUrl}/members/videothumbs/${video}/${video}_02.jpg`;
    const other = `${mediaUrl}/members/videothumbs/${kept}/${kept}_02.jpg`;

    const before = await readyz();
    expect(before.status).toBe(503);
    expect(before.body.error?.code).toBe('not_ready');
    expect(before.body.lists.takedowns).toMatchObject({ source: 'url', loaded: false, ageSeconds: null });
    expect(before.body.lists.revocations).toMatchObject({ source: 'url', loaded: false, ageSeconds: null });
    for (const url of [gone, `${gone}?w=320`, other]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_ready');
    }

    const bff = spawnTs(
      'bff',
      resolve(repoRoot, 'bff/src/main.ts'),
      { ...process.env, DATABASE_URL: databaseUrl, BFF_PORT: String(bffPort), LOG_LEVEL: 'warn' },
      (_n, line) => lines.push(line),
    );
    children.push(bff);
    await waitHealthy(`http://127.0.0.1:${bffPort}/healthz`, bff);
    // The first load is retried within a couple of seconds, not at the next poll.
    await expect.poll(async () => (await readyz()).status, { timeout: 10_000, interval: 200 }).toBe(200);
    const after = await readyz();
    expect(after.body.status).toBe('ready');
    expect(after.body.lists.takedowns).toMatchObject({ source: 'url', loaded: true, maxAgeSeconds: 45 });
    expect(after.body.lists.revocations).toMatchObject({ source: 'url', loaded: true, maxAgeSeconds: 45 });
    expect(after.body.lists.takedowns.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(after.body.lists.revocations.ageSeconds).toBeGreaterThanOrEqual(0);

    expect((await fetch(gone)).status).toBe(410);
    expect((await fetch(`${gone}?w=320`)).status).toBe(410);
    expect((await fetch(other)).status).toBe(200);
  });
});
