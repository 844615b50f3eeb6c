import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Knex } from 'knex';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { backupStatus, dumpDatabase } from '@media-site/db/backup';
import { createTestDb, grantVod, testBackends, useTestDb, type Backend } from '@media-site/db/testing';
import { runOpsCaptured, runOpsCommand } from '../commands/registry';
import { ensureDemoMember } from '../seed/demo-member';
import { seedDemoCatalog } from '../seed/demo-rows';
import { LocalMedia, type MediaSource } from './media';
import { nextRunAt, parseSchedule } from './schedule';
import { backup, restore } from './run';
import { treeWriter } from '../test/backup-tree';
import { BackupError, BackupStore, keptSets, LOCK_STALE_MS, setIdAt } from './store';

const scratch = mkdtempSync(join(tmpdir(), 'backup-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let folders = 0;
const folder = (name: string) => {
  const dir = join(scratch, `${name}-${(folders += 1)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** A media tree with nested folders, a 3 MiB file and two files with the same bytes. */
function mediaTree(): string {
  const root = folder('media');
  const put = treeWriter(root);
  put('photos/set-a/01.jpg', randomBytes(40_000), 1_700_000_000_123);
  put('photos/set-a/thumbs/01.jpg', randomBytes(3_000), 1_700_000_001_000);
  put('video/clip-a.mp4', randomBytes(3 * 1024 * 1024), 1_700_000_002_000);
  const same = randomBytes(1_000);
  put('video/clip-a/poster.jpg', same, 1_700_000_003_000);
  put('vod/film-b/poster.jpg', same, 1_700_000_004_000);
  put('video/clip-a/480p.mp4.put-1.tmp', randomBytes(10), 1_700_000_005_000);
  return root;
}

/** Every file under `root` with its bytes' hash and mtime, by path. */
function treeOf(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    out[file.slice(root.length + 1)] = `${readFileSync(file).toString('base64').slice(0, 40)} ${Math.round(statSync(file).mtimeMs)}`;
  }
  return out;
}

/**
 * The database as lines, but the generation (bumped on restore: running bffs drop what they
 * cached) and the backup runs. `asText`: every value as text, for two engines (MariaDB gives a DECIMAL as "9.99").
 */
async function dumpLines(knex: Knex, asText = false): Promise<string[]> {
  const lines: string[] = [];
  let table = '';
  await dumpDatabase(knex, (line) => {
    const parsed = JSON.parse(line) as unknown;
    if (!Array.isArray(parsed)) table = (parsed as { table: string }).table;
    // backup_runs: the source records its run after the set, by design.
    else if (parsed[0] === 'generation' || table === 'backup_runs') return;
    lines.push(asText && Array.isArray(parsed) ? JSON.stringify(parsed.map((v) => (v === null ? null : String(v)))) : line);
  });
  return lines;
}

/** A site in use: the demo catalog, a member who owns a VOD, a takedown. */
async function fillSite(knex: Knex): Promise<void> {
  await seedDemoCatalog(knex);
  await ensureDemoMember(knex, Date.parse('2026-11-01T00:00:00Z'));
  const member = await knex('members').where({ username: 'demo' }).first('id');
  const vod = await knex('vods').orderBy('id').first('id');
  await grantVod(knex, member.id, vod.id);
  const video = await knex('videos').orderBy('id').first('path');
  const cli = await runOpsCaptured(['takedown', `/video/${video.path}`, '--by', 'tester', '--reason', 'a test takedown'], {
    env: {},
    knex,
  });
  expect(cli.code, cli.err).toBe(0);
}

describe.each(testBackends())('backup and restore (%s)', (backend: Backend) => {
  const source = useTestDb(backend);

  it('restores the database row for row and every media file with its mtime into an empty stack', async () => {
    await fillSite(source.knex);
    const mediaRoot = mediaTree();
    const store = new BackupStore(folder('backups'));
    const { manifest } = await backup({ knex: source.knex, store, media: new LocalMedia(mediaRoot), keepDaily: 7, keepWeekly: 4 });
    expect(manifest.media).toMatchObject({ storage: 'local', files: 5, copiedFiles: 4 });
    expect(manifest.database.tables.members).toBe(1);
    expect(manifest.database.tables.takedowns).toBe(1);
    // Password hashes and members-only media: the owner's alone.
    const mode = (path: string) => statSync(path).mode & 0o777;
    let anObject = '';
    for await (const entry of store.mediaEntries(manifest)) anObject = store.objectPath(entry.sha256);
    expect([join(store.dir, 'sets'), store.setDir(manifest.id), join(store.dir, 'objects')].map(mode)).toEqual([0o700, 0o700, 0o700]);
    expect(
      [join(store.setDir(manifest.id), manifest.database.file), join(store.setDir(manifest.id), 'manifest.json'), anObject].map(mode),
    ).toEqual([0o600, 0o600, 0o600]);

    const target = await createTestDb(backend, { migrate: false });
    try {
      const restoredRoot = folder('restored');
      const result = await restore({ knex: target.knex, store, media: new LocalMedia(restoredRoot), set: 'latest' });
      expect(result).toMatchObject({ placed: 5, same: 0 });
      expect(await dumpLines(target.knex)).toEqual(await dumpLines(source.knex));
      const { ['video/clip-a/480p.mp4.put-1.tmp']: unfinished, ...finished } = treeOf(mediaRoot);
      expect(unfinished).toBeDefined();
      expect(treeOf(restoredRoot)).toEqual(finished);

      // Again: the media are there (kept), and the database now refuses a second copy.
      await expect(restore({ knex: target.knex, store, media: new LocalMedia(restoredRoot), set: manifest.id })).rejects.toThrow(
        /in use \(members has 1 rows\)/,
      );
    } finally {
      await target.destroy();
    }
  });

  it('copies only new bytes into the next set, and retention removes what no kept set names', async () => {
    const mediaRoot = mediaTree();
    const store = new BackupStore(folder('backups'));
    const day = (d: number) => Date.parse(`2026-11-${String(d).padStart(2, '0')}T03:00:00Z`);
    const run = (d: number) =>
      backup({ knex: source.knex, store, media: new LocalMedia(mediaRoot), keepDaily: 2, keepWeekly: 0, now: () => day(d) });
    expect((await run(1)).manifest.media).toMatchObject({ files: 5, copiedFiles: 4 });
    const second = await run(2);
    expect(second.manifest.media).toMatchObject({ files: 5, copiedFiles: 0, copiedBytes: 0 });
    writeFileSync(join(mediaRoot, 'video', 'clip-b.mp4'), randomBytes(5_000));
    rmSync(join(mediaRoot, 'video', 'clip-a.mp4'));
    const third = await run(3);
    expect(third.manifest.media).toMatchObject({ files: 5, copiedFiles: 1, copiedBytes: 5_000 });
    // Day 1 goes (two daily sets kept); clip-a's 3 MiB are still named by day 2's set.
    expect(third.pruned).toEqual([setIdAt(day(1))]);
    expect((await store.sets()).map((s) => s.id)).toEqual([setIdAt(day(2)), setIdAt(day(3))]);
    const fourth = await run(4);
    expect(fourth.pruned).toEqual([setIdAt(day(2))]);
    expect(fourth.objectsRemoved).toBe(1);
  });

  it('records each run for the dashboard: the last good set, a failure since, late after a day', async () => {
    const store = new BackupStore(folder('backups'));
    const at = Date.parse('2027-01-20T03:30:00Z'); // after every other test's runs
    const { manifest } = await backup({
      knex: source.knex,
      store,
      media: new LocalMedia(mediaTree()),
      keepDaily: 7,
      keepWeekly: 4,
      now: () => at,
    });
    expect(await backupStatus(source.knex, at + 3_600_000)).toEqual({
      lastOk: { setId: manifest.id, finishedAt: at, files: 5, bytes: manifest.media.bytes },
      lastFailed: null,
      late: false,
    });
    const broken: MediaSource = {
      kind: 'local',
      // eslint-disable-next-line require-yield
      async *walk() {
        throw new Error('the media disk is gone');
      },
      open: async () => null,
    };
    await expect(
      backup({ knex: source.knex, store, media: broken, keepDaily: 7, keepWeekly: 4, now: () => at + 86_400_000 }),
    ).rejects.toThrow(/disk is gone/);
    expect(await backupStatus(source.knex, at + 86_400_000 + 3 * 3_600_000)).toMatchObject({
      lastOk: { setId: manifest.id },
      lastFailed: { finishedAt: at + 86_400_000, error: 'the media disk is gone' },
      late: true,
    });
    // The failed run left no set behind.
    expect((await store.sets()).map((s) => s.id)).toEqual([manifest.id]);
  });

  it('a run stopped mid-set writes no set and gives the folder back; the next run clears what it left and finishes', async () => {
    const store = new BackupStore(folder('backups'));
    const local = new LocalMedia(mediaTree());
    const stop = new AbortController();
    let opened = 0;
    const stopping: MediaSource = {
      kind: 'local',
      walk: () => local.walk(),
      open: async (path) => {
        opened += 1;
        if (opened === 2) stop.abort(new Error('stopped by a signal'));
        return local.open(path);
      },
    };
    await expect(backup({ knex: source.knex, store, media: stopping, keepDaily: 7, keepWeekly: 4, signal: stop.signal })).rejects.toThrow(
      /stopped by a signal/,
    );
    expect(await store.sets()).toEqual([]);
    expect(existsSync(join(store.dir, 'lock'))).toBe(false);
    expect(readdirSync(join(store.dir, 'sets'))).toHaveLength(1);
    const { manifest } = await backup({ knex: source.knex, store, media: local, keepDaily: 7, keepWeekly: 4 });
    expect(readdirSync(join(store.dir, 'sets'))).toEqual([manifest.id]);
    expect(manifest.media.files).toBe(5);
  });

  it('a dry run finds a damaged object; a restore refuses it before the database is touched', async () => {
    const mediaRoot = mediaTree();
    const store = new BackupStore(folder('backups'));
    const { manifest } = await backup({ knex: source.knex, store, media: new LocalMedia(mediaRoot), keepDaily: 7, keepWeekly: 4 });
    const target = await createTestDb(backend, { migrate: false });
    try {
      const media = new LocalMedia(folder('restored'));
      const clean = await restore({ knex: target.knex, store, media, set: manifest.id, dryRun: true });
      expect(clean).toMatchObject({ problems: [], refused: null });
      let clip = '';
      for await (const entry of store.mediaEntries(manifest)) if (entry.path === 'video/clip-a.mp4') clip = store.objectPath(entry.sha256);
      const bytes = readFileSync(clip);
      bytes[1000] = bytes[1000]! ^ 0xff;
      writeFileSync(clip, bytes);
      const damaged = await restore({ knex: target.knex, store, media, set: 'latest', dryRun: true });
      expect(damaged.problems).toEqual(['video/clip-a.mp4: its object is damaged']);
      await expect(restore({ knex: target.knex, store, media, set: 'latest' })).rejects.toThrow(
        /video\/clip-a.mp4: the set's copy is damaged/,
      );
      expect(await target.knex.schema.hasTable('members')).toBe(false);
    } finally {
      await target.destroy();
    }
  });
});

describe('backup sets', () => {
  it('moves a catalog from the embedded SQLite to MariaDB', { timeout: 120_000 }, async () => {
    if (!testBackends().includes('mysql')) return;
    const sqlite = await createTestDb('sqlite');
    const maria = await createTestDb('mysql', { migrate: false });
    try {
      await fillSite(sqlite.knex);
      const store = new BackupStore(folder('backups'));
      await backup({ knex: sqlite.knex, store, media: new LocalMedia(folder('empty')), keepDaily: 7, keepWeekly: 4 });
      await restore({ knex: maria.knex, store, media: new LocalMedia(folder('restored')), set: 'latest' });
      // Rows in key order, which two engines' collations may tell apart: compared as sets per table.
      const byTable = (lines: string[]) =>
        lines
          .join('\n')
          .split(/(?=\{"table")/)
          .map((t) => t.split('\n').filter(Boolean).sort());
      expect(byTable(await dumpLines(maria.knex, true))).toEqual(byTable(await dumpLines(sqlite.knex, true)));
    } finally {
      await sqlite.destroy();
      await maria.destroy();
    }
  });

  it('refuses a set that names a path outside the media root', async () => {
    const db = await createTestDb('sqlite');
    try {
      const store = new BackupStore(folder('backups'));
      const mediaRoot = folder('media');
      writeFileSync(join(mediaRoot, 'a.jpg'), 'x');
      const { manifest } = await backup({ knex: db.knex, store, media: new LocalMedia(mediaRoot), keepDaily: 7, keepWeekly: 4 });
      // A tampered list (and manifest checksum to match, as an attacker with the folder could write).
      const sha = (await store.mediaEntries(manifest)[Symbol.asyncIterator]().next()).value!.sha256;
      const list = gzipSync(`${JSON.stringify(['../../escaped.jpg', 1, 0, sha, '1:0'])}\n`);
      writeFileSync(join(store.setDir(manifest.id), manifest.media.file), list);
      const { createHash } = await import('node:crypto');
      const tampered = { ...manifest, media: { ...manifest.media, sha256: createHash('sha256').update(list).digest('hex') } };
      writeFileSync(join(store.setDir(manifest.id), 'manifest.json'), JSON.stringify(tampered));
      const restoredRoot = join(folder('deep'), 'a', 'b');
      const target = await createTestDb('sqlite', { migrate: false });
      try {
        await expect(restore({ knex: target.knex, store, media: new LocalMedia(restoredRoot), set: 'latest' })).rejects.toThrow(
          BackupError,
        );
        expect(existsSync(join(restoredRoot, '..', '..', 'escaped.jpg'))).toBe(false);
      } finally {
        await target.destroy();
      }
    } finally {
      await db.destroy();
    }
  });

  it('one run holds the folder; a lock left by a process that is gone, or untouched for 2 minutes, is taken over', async () => {
    const store = new BackupStore(folder('backups'));
    let release!: () => void;
    const first = store.locked('backup', () => new Promise<void>((r) => (release = r)));
    await vi.waitFor(() => expect(release).toBeDefined());
    await expect(store.locked('backup', async () => 'second')).rejects.toThrow(/another backup \(pid \d+ on .*\) is using/);
    release();
    await first;
    const lock = join(store.dir, 'lock');
    writeFileSync(lock, JSON.stringify({ what: 'backup', host: (await import('node:os')).hostname(), pid: 2 ** 22 + 1 }));
    expect(await store.locked('backup', async () => 'taken over')).toBe('taken over');
    // Another host's (a container's) lock: kept while its holder touches it, taken once it stops.
    writeFileSync(lock, JSON.stringify({ what: 'backup', host: 'another-container', pid: 1 }));
    await expect(store.locked('backup', async () => 'second')).rejects.toThrow(/another backup \(pid 1 on another-container/);
    const then = (Date.now() - LOCK_STALE_MS - 1000) / 1000;
    utimesSync(lock, then, then);
    expect(await store.locked('backup', async () => 'taken over')).toBe('taken over');
  });

  it('backup --scheduled writes a set at its time and stops at SIGTERM, giving the folder back', async () => {
    const db = await createTestDb('sqlite');
    try {
      const dir = folder('backups');
      const mediaRoot = folder('media');
      writeFileSync(join(mediaRoot, 'a.jpg'), 'x');
      const out: string[] = [];
      const listeners = process.listenerCount('SIGTERM');
      const code = await runOpsCommand(['backup', '--scheduled'], {
        env: { BACKUP_DIR: dir, MEDIA_ROOT: mediaRoot, BACKUP_SCHEDULE: '03:30' },
        knex: db.knex,
        // 2 ms before the scheduled time, every time it asks.
        now: () => Date.parse('2026-11-28T03:29:59.998Z'),
        out: (line) => {
          out.push(line);
          if (line.startsWith('backup 2')) process.emit('SIGTERM');
        },
        err: () => {},
      });
      expect(code).toBe(0);
      expect(out[0]).toBe(`next backup at 2026-11-28T03:30:00Z (BACKUP_SCHEDULE), into ${dir}`);
      expect(out[1]).toMatch(/^backup 20261128T032959\.998Z written/);
      expect(out.at(-1)).toBe('backup schedule stopped');
      expect(existsSync(join(dir, 'lock'))).toBe(false);
      expect(process.listenerCount('SIGTERM')).toBe(listeners);
    } finally {
      await db.destroy();
    }
  });

  it('BACKUP_SCHEDULE: UTC times of day; the next one after now', () => {
    expect(parseSchedule('15:30, 03:05,15:30')).toEqual([185, 930]);
    for (const bad of ['3:30', '24:00', '03:60', '', 'daily', '03:30;04:00']) expect(() => parseSchedule(bad), bad).toThrow(/HH:MM/);
    const at = (t: string) => Date.parse(`2026-11-28T${t}Z`);
    expect(nextRunAt([185, 930], at('01:00:00'))).toBe(at('03:05:00'));
    expect(nextRunAt([185, 930], at('03:05:00'))).toBe(at('15:30:00'));
    expect(nextRunAt([185, 930], at('23:59:59'))).toBe(Date.parse('2026-11-29T03:05:00Z'));
  });

  it('a set from a newer version is refused with what to do', async () => {
    const db = await createTestDb('sqlite', { migrate: false });
    try {
      const { restoreProblem } = await import('@media-site/db/backup');
      expect(await restoreProblem(db.knex, ['001_catalog', '999_future'])).toMatch(
        /newer version \(migrations 999_future are unknown here\)/,
      );
    } finally {
      await db.destroy();
    }
  });

  it('retention keeps the newest set of each of the last days and weeks', () => {
    const ids = ['2026-11-02T01', '2026-11-09T01', '2026-11-16T01', '2026-11-20T01', '2026-11-27T01', '2026-11-28T01', '2026-11-28T05'].map(
      (t) => setIdAt(Date.parse(`${t}:00:00Z`)),
    );
    const at = (t: string) => setIdAt(Date.parse(`${t}:00:00Z`));
    expect(keptSets(ids, 2, 0)).toEqual([at('2026-11-28T05'), at('2026-11-27T01')]);
    // Weeks from Monday: 23-29 Nov (newest: 28th 05h), 16-22 (20th), 9-15 (9th).
    expect(keptSets(ids, 1, 3)).toEqual([at('2026-11-28T05'), at('2026-11-20T01'), at('2026-11-09T01')]);
  });
});
