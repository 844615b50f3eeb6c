import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { treeWriter } from '../test/backup-tree';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@media-site/db/testing';
import { S3Originals } from '@media-site/storage';
import { startTestS3, type TestS3 } from '@media-site/storage/testing-s3';
import { BucketMedia } from './media';
import { backup, restore } from './run';
import { BackupStore } from './store';

// STORAGE=s3: a set of every object in the bucket, restored into a new, empty bucket with each
// object's bytes and kept mtime (the media service's ETags and variant keys depend on it).

const scratch = mkdtempSync(join(tmpdir(), 'backup-s3-test-'));
let source: TestS3;
let target: TestS3;
let from: S3Originals;
let to: S3Originals;
let db: TestDb;

beforeAll(async () => {
  [source, target] = await Promise.all([startTestS3(0), startTestS3(0)]);
  from = new S3Originals({ ...source.settings });
  from.listPageSize = 2; // walk several pages
  to = new S3Originals(target.settings);
  db = await createTestDb('sqlite');
  const tree = join(scratch, 'tree');
  const put = treeWriter(tree);
  put('photos/set-a/01.jpg', randomBytes(20_000), 1_700_000_000_000);
  put('photos/set-a/thumbs/01.jpg', randomBytes(2_000), 1_700_000_001_000);
  put('video/clip-a.mp4', randomBytes(600_000), 1_700_000_002_000);
  put('videorenditions/clip-a/720p.mp4', randomBytes(300_000), 1_700_000_003_000);
  put('.seed/demo-media.json', Buffer.from('{}'), 1_700_000_004_000);
  await from.putTree('', tree);
});
afterAll(async () => {
  from?.close();
  to?.close();
  await Promise.all([source?.stop(), target?.stop(), db?.destroy()]);
  rmSync(scratch, { recursive: true, force: true });
});

async function objects(bucket: S3Originals): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const o of bucket.walk()) {
    const head = await bucket.head(o.relative);
    out[o.relative] = `${o.version} ${head?.mtimeMs}`;
  }
  return out;
}

describe('backup and restore with STORAGE=s3', () => {
  it('restores every object of the bucket into an empty one, and copies nothing new the second time', async () => {
    const store = new BackupStore(join(scratch, 'backups'));
    const media = new BucketMedia(from, join(scratch, 'work'));
    const first = await backup({ knex: db.knex, store, media, keepDaily: 7, keepWeekly: 4, now: () => Date.parse('2026-11-27T03:30:00Z') });
    expect(first.manifest.media).toMatchObject({ storage: 's3', files: 5, copiedFiles: 5, bytes: 922_002 });
    const second = await backup({
      knex: db.knex,
      store,
      media,
      keepDaily: 7,
      keepWeekly: 4,
      now: () => Date.parse('2026-11-28T03:30:00Z'),
    });
    expect(second.manifest.media).toMatchObject({ files: 5, copiedFiles: 0 });

    const empty = await createTestDb('sqlite', { migrate: false });
    try {
      const into = new BucketMedia(to, join(scratch, 'work'));
      const restored = await restore({ knex: empty.knex, store, media: into, set: 'latest' });
      expect(restored).toMatchObject({ placed: 5, same: 0 });
      expect(await objects(to)).toEqual(await objects(from));
    } finally {
      await empty.destroy();
    }
  });
});
