import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { grantVod } from '@media-site/db/testing';
import { raw } from '@media-site/media-service/testing/http';
import { catalogCli } from '../src/catalog-cli';
import { signInCookie } from '../src/sign-in';
import { startStack, type Stack } from '../src/stack';

// The restore drill on the embedded default (SQLite and the local media tree, through the repo's
// nginx): a site in use is backed up while it runs, the whole data folder is lost, an empty one is
// restored from the set, and the site comes back with nothing lost: the member signs in, owns the
// VOD and downloads the same bytes, the takedown is still down, the scheduled release still waits.

const BUYER = { username: 'drill_buyer', password: 'drill-password-1' };
const backups = mkdtempSync(join(tmpdir(), 'drill-backups-'));
let stack: Stack | undefined;
afterAll(async () => {
  await stack?.stop();
  rmSync(backups, { recursive: true, force: true });
});

interface Seen {
  vodAccess: string;
  original: { status: number; bytes: number; sha256: string };
  takenDown: number;
  scheduled: number;
  counts: Record<string, number>;
}

async function firstPaths(databaseUrl: string): Promise<{ vod: string; video: string; later: string }> {
  const knex = createKnex(databaseUrl);
  try {
    const [vod, video, later] = await Promise.all([
      knex('vods').orderBy('id').first('path'),
      knex('videos').orderBy('id').first('path'),
      knex('videos').orderBy('id', 'desc').first('path'),
    ]);
    return { vod: vod.path, video: video.path, later: later.path };
  } finally {
    await knex.destroy();
  }
}

/** What a member and a visitor see of the three items, and the rows that must all come back. */
async function look(site: Stack, paths: { vod: string; video: string; later: string }): Promise<Seen> {
  const cookie = await signInCookie(site.url, BUYER);
  const view = (await (await fetch(`${site.url}/api/playback/vod/${paths.vod}`, { headers: { Cookie: cookie } })).json()) as {
    access: string;
    downloads: { label: string; path: string }[];
  };
  const original = view.downloads.find((d) => d.label === 'Original');
  expect(original, JSON.stringify(view)).toBeDefined();
  const link = (await (
    await fetch(`${site.url}/api/download-link?path=${encodeURIComponent(original!.path)}`, { headers: { Cookie: cookie } })
  ).json()) as {
    url: string;
  };
  const file = await raw(site.url, link.url);
  const status = async (path: string) => (await fetch(`${site.url}${path}`)).status;
  const knex = createKnex(site.databaseUrl);
  try {
    const counts: Record<string, number> = {};
    for (const table of ['members', 'subscriptions', 'takedowns', 'takedown_log', 'videos', 'vods', 'photosets', 'photoset_files']) {
      counts[table] = Number(((await knex(table).count({ n: '*' }).first()) as { n: number }).n);
    }
    return {
      vodAccess: view.access,
      original: { status: file.status, bytes: file.body.length, sha256: createHash('sha256').update(file.body).digest('hex') },
      takenDown: await status(`/api/playback/video/${paths.video}`),
      scheduled: await status(`/api/playback/video/${paths.later}`),
      counts,
    };
  } finally {
    await knex.destroy();
  }
}

describe('the restore drill on the embedded default', () => {
  it(
    'backs up a running site, and an empty data folder restored from the set serves it again with nothing lost',
    { timeout: 240_000 },
    async () => {
      stack = await startStack({ frontDoor: 'nginx' });
      const source = stack;
      const paths = await firstPaths(source.databaseUrl);
      const cli = (site: { databaseUrl: string; mediaRoot: string }, ...argv: string[]) => catalogCli(site, ...argv);
      for (const argv of [
        ['member', 'add', BUYER.username, '--password', BUYER.password, '--email', 'buyer@example.com', '--days', '30'],
        ['takedown', `/video/${paths.video}`, '--by', 'drill', '--reason', 'a takedown that must survive the restore'],
        ['schedule', `/video/${paths.later}`, new Date(Date.now() + 7 * 86_400_000).toISOString()],
      ]) {
        const run = await cli(source, ...argv);
        expect(run.code, `${argv.join(' ')}: ${run.err}`).toBe(0);
      }
      const knex = createKnex(source.databaseUrl);
      try {
        const buyer = await knex('members').where({ username: BUYER.username }).first('id');
        const vod = await knex('vods').where({ path: paths.vod }).first('id');
        await grantVod(knex, buyer.id, vod.id);
      } finally {
        await knex.destroy();
      }
      const before = await look(source, paths);
      expect(before).toMatchObject({ vodAccess: 'granted', original: { status: 200 }, takenDown: 404, scheduled: 404 });

      // While the site runs: the set is as of one instant.
      const made = await cli(source, 'backup', '--to', backups);
      expect(made.code, made.err).toBe(0);
      expect(made.out).toMatch(/^backup \d{8}T\d{6}\.\d{3}Z written/);
      await source.stop();
      stack = undefined;

      // The disk is lost: a new, empty data folder; restore before the first start (no demo seed).
      const dataDir = mkdtempSync(join(tmpdir(), 'drill-restored-'));
      const empty = { databaseUrl: `sqlite:${join(dataDir, 'catalog.sqlite')}`, mediaRoot: join(dataDir, 'media') };
      const check = await cli(empty, 'restore-backup', 'latest', '--from', backups, '--dry-run');
      expect(check.code, check.err).toBe(0);
      expect(check.out).toMatch(/is whole: .*checked against their sha256\nthis database would take it/);
      const restored = await cli(empty, 'restore-backup', 'latest', '--from', backups);
      expect(restored.code, restored.err).toBe(0);
      expect(restored.out).toMatch(/every table's count as the set records it/);

      stack = await startStack({ frontDoor: 'nginx', dataDir });
      expect(await look(stack, paths)).toEqual(before);
      // A second restore over a site in use is refused, with the reason.
      const again = await cli(empty, 'restore-backup', 'latest', '--from', backups);
      expect(again).toMatchObject({
        code: 1,
        err: expect.stringMatching(/in use \(members has \d+ rows\): restore into an empty database/),
      });
    },
  );
});
