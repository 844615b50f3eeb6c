import { describe, expect, it } from 'vitest';
import { recordEncoded } from './index';
import { encodeJobRow, testBackends, useTestDb } from '../testing';
import { migrateLatest, migrateUpTo, readGeneration } from '../index';

const clip = (path: string) => ({
  path,
  updatename: `Clip ${path}`,
  modelname: 'Model A1',
  datetoupload: '2025-01-01',
  search_text: `clip ${path}\nmodel a1`,
  prename: path,
});

describe.each(testBackends())('clip durations on %s', (backend) => {
  const db = useTestDb(backend);

  it('recordEncoded stores whole seconds, moves the generation, and leaves a value within a second alone', async () => {
    await db.knex('videos').insert(clip('d-1'));
    const duration = async () => (await db.knex('videos').where({ path: 'd-1' }).first('duration')).duration as number | null;
    expect(await duration()).toBeNull();
    const before = await readGeneration(db.knex);
    expect(await recordEncoded(db.knex, 'video', 'd-1', 62.6)).toBe(true);
    expect(Number(await duration())).toBe(63);
    expect(await readGeneration(db.knex)).toBe(before + 1);
    // Rounding the renditions' length the other way is not a change.
    expect(await recordEncoded(db.knex, 'video', 'd-1', 62.4)).toBe(false);
    expect(await recordEncoded(db.knex, 'video', 'd-1', 0)).toBe(false);
    expect(await readGeneration(db.knex)).toBe(before + 1);
    expect(await recordEncoded(db.knex, 'video', 'd-1', 3725)).toBe(true);
    expect(Number(await duration())).toBe(3725);
    expect(await recordEncoded(db.knex, 'vod', 'no-such-vod', 10)).toBe(false);
    // An item's first outputs (its hover preview) move the generation even when the time is the same.
    const before2 = await readGeneration(db.knex);
    expect(await recordEncoded(db.knex, 'video', 'd-1', 3725, { firstOutputs: true })).toBe(true);
    expect(await readGeneration(db.knex)).toBe(before2 + 1);
  });
});

describe.each(testBackends())('migration 013 on %s', (backend) => {
  const db = useTestDb(backend, { migrate: false });

  it('fills the duration of items already encoded from their manifests', async () => {
    await migrateUpTo(db.knex, '012_mail');
    await db.knex('videos').insert([clip('encoded'), clip('not-encoded')]);
    const manifest = {
      version: 1,
      duration: 47.52,
      source: { sig: 's', width: 1280, height: 720, hasAudio: true },
      renditions: [{ label: '720p', file: '720p.mp4', width: 1280, height: 720, bitrate: 1, bytes: 1, mime: 'video/mp4' }],
      poster: { file: 'poster.jpg', width: 1280, height: 720 },
      sprite: { file: 'sprite.jpg', width: 1600, height: 900, frames: 25, interval: 2 },
      thumbnails: { file: 'thumbs.vtt' },
      trailer: { file: 'trailer.mp4', width: 640, height: 360, duration: 6, bytes: 1 },
      encodedAt: 1,
    };
    await db
      .knex('media_jobs')
      .insert([encodeJobRow('video', 'encoded', JSON.stringify(manifest)), encodeJobRow('video', 'not-encoded', null)]);
    await migrateLatest(db.knex);
    const rows = await db.knex('videos').orderBy('path').select('path', 'duration');
    expect(rows.map((r) => [r.path, r.duration === null ? null : Number(r.duration)])).toEqual([
      ['encoded', 48],
      ['not-encoded', null],
    ]);
  });
});
