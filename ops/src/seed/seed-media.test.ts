import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoDownloadName, vodDownloadName } from '@media-site/contracts/download-name';
import { readGeneration } from '@media-site/db';
import { buildDemoCatalog, ensureDemo, writeMediaTree } from '../index';
import { FIXTURE_CLIP, loadSampleClips } from './sample-video';
import { renderPicture } from './image';
import { showcaseItems } from './media';
import { showcaseClips } from './showcase-clips';
import { jobCounts, listJobs, parseManifest } from '@media-site/db/encode';
import { EncodeWorker } from '@media-site/encoder';
import { ENCODE_SETTINGS, ffprobeStreams } from '@media-site/encoder/testing-clips';
import { testBackends, useTestDb } from '@media-site/db/testing';

const MAGIC: Record<string, (b: Buffer) => boolean> = {
  mp4: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp',
  mpg: (b) => b.readUInt32BE(0) === 0x000001ba,
  wmv: (b) => b.readUInt32BE(0) === 0x3026b275,
};

async function jpegSize(file: string): Promise<[number, number]> {
  const meta = await sharp(file).metadata();
  expect(meta.format).toBe('jpeg');
  return [meta.width, meta.height];
}

/** A real clip in the container its extension names, or the MP4 fixture when ffmpeg was missing. */
async function expectClip(file: string): Promise<void> {
  const bytes = await readFile(file);
  expect(bytes.length).toBeGreaterThan(1000);
  const ext = file.slice(file.lastIndexOf('.') + 1);
  expect(MAGIC[ext]?.(bytes) || MAGIC.mp4?.(bytes)).toBe(true);
}

let mediaRoot: string;
beforeAll(async () => {
  mediaRoot = await mkdtemp(join(tmpdir(), 'seed-media-'));
});
afterAll(async () => {
  await rm(mediaRoot, { recursive: true, force: true });
});

describe.each(testBackends())('ensureDemo on %s', (backend) => {
  const db = useTestDb(backend);

  it('seeds an empty catalog and completes the media tree', { timeout: 180_000 }, async () => {
    const result = await ensureDemo({ knex: db.knex, mediaRoot });
    expect(result.seeded?.photosets).toBeGreaterThanOrEqual(30);
    expect(result.media).not.toBeNull();
    expect((result.media?.written ?? 0) + (result.media?.skipped ?? 0)).toBeGreaterThan(1000);
    // Every video and VOD waits for the encoder (npm start runs one in the background).
    expect(result.encode).toEqual({ items: 88, queued: 88 });
    expect(await jobCounts(db.knex)).toEqual({ queued: 88, running: 0, done: 0, failed: 0 });
    // The showcase items' rows carry their clips' running times (30-60 s), the others the sample's.
    expect(result.media?.durations.length).toBe(result.media?.showcase);
    for (const { type, path, seconds } of result.media?.durations ?? []) {
      expect(seconds).toBeGreaterThanOrEqual(30);
      const row = await db
        .knex(type === 'video' ? 'videos' : 'vods')
        .where({ path })
        .first('duration');
      expect(Number(row.duration)).toBe(seconds);
    }
  });

  it('wrote the files the rows name', async () => {
    const sets = await db.knex('photosets').select('id', 'path').orderBy('id');
    for (const set of sets) {
      const files = await db.knex('photoset_files').where({ photoset_id: set.id }).orderBy('position').pluck('filename');
      await stat(join(mediaRoot, 'photosthumbs', set.path, 'large.jpg'));
      for (const file of files) {
        await stat(join(mediaRoot, 'photos', set.path, file));
        await stat(join(mediaRoot, 'photosthumbs', set.path, file));
      }
    }
    const [first] = sets;
    const firstFile = await db.knex('photoset_files').where({ photoset_id: first.id, position: 1 }).first('filename');
    const [w, h] = await jpegSize(join(mediaRoot, 'photos', first.path, firstFile.filename));
    expect(w / h).toBeCloseTo(1.5, 1);
    expect(w).toBeGreaterThanOrEqual(1200);
    expect(await jpegSize(join(mediaRoot, 'photosthumbs', first.path, firstFile.filename))).toEqual([320, 213]);
    expect(await jpegSize(join(mediaRoot, 'photosthumbs', first.path, 'large.jpg'))).toEqual([640, 427]);
    // Every third photo stands upright; its thumbnail is cropped to the same landscape box.
    const third = await db.knex('photoset_files').where({ photoset_id: first.id, position: 3 }).first('filename');
    expect(await jpegSize(join(mediaRoot, 'photos', first.path, third.filename))).toEqual([1067, 1600]);
    expect(await jpegSize(join(mediaRoot, 'photosthumbs', first.path, third.filename))).toEqual([320, 213]);

    for (const free of await db.knex('freephotosets').select('id', 'path')) {
      for (const file of await db.knex('freephotoset_files').where({ freephotoset_id: free.id }).pluck('filename')) {
        await jpegSize(join(mediaRoot, 'freephotos', free.path, file));
      }
    }
  });

  it('wrote frame thumbnails and clips under their download names', async () => {
    const videos = await db.knex('videos').select('path', 'prename');
    for (const v of videos) {
      for (const suffix of ['02', '05', '10', '15']) await stat(join(mediaRoot, 'videothumbs', v.path, `${v.path}_${suffix}.jpg`));
      await expectClip(join(mediaRoot, 'video', v.path, videoDownloadName(v.prename)));
    }
    const vods = await db.knex('vods').select('path', 'prename', 'format', 'datetoupload');
    for (const v of vods) {
      for (const suffix of ['02', '05', '10', '15']) await stat(join(mediaRoot, 'vodthumbs', v.path, `${v.path}_${suffix}.jpg`));
      await expectClip(join(mediaRoot, 'vod', v.path, vodDownloadName({ ...v, format: Number(v.format) })));
    }
    const [v0] = videos;
    expect(await jpegSize(join(mediaRoot, 'videothumbs', v0.path, `${v0.path}_02.jpg`))).toEqual([640, 360]);
    expect(new Set(videos.map((v) => videoDownloadName(v.prename).slice(-7)))).toEqual(new Set(['001.mp4', '001.mpg', '001.wmv']));
  });

  it('draws pictures, not flat fills: every photo has detail, and two sets look different', async () => {
    const [a, b] = await db.knex('photosets').select('id', 'path').orderBy('id').limit(2);
    const photo = async (set: { id: number; path: string }, position: number) =>
      join(
        mediaRoot,
        'photos',
        set.path,
        (await db.knex('photoset_files').where({ photoset_id: set.id, position }).first('filename')).filename,
      );
    for (const file of [await photo(a, 1), await photo(a, 2), await photo(b, 1)]) {
      const { channels } = await sharp(file).stats();
      // A flat fill (the old placeholders, text aside) has a deviation near 0; a landscape has tens.
      for (const c of channels) expect(c.stdev).toBeGreaterThan(15);
    }
    // Two sets: compared as small greyscale copies, pixels differ by 20+ levels on average.
    const small = (file: string) => sharp(file).resize(64, 43, { fit: 'fill' }).greyscale().raw().toBuffer();
    const [pa, pb] = await Promise.all([small(await photo(a, 1)), small(await photo(b, 1))]);
    let diff = 0;
    for (let i = 0; i < pa.length; i++) diff += Math.abs((pa[i] ?? 0) - (pb[i] ?? 0));
    expect(diff / pa.length).toBeGreaterThan(20);
  });

  it('gives the newest MP4 videos and VOD a 30-60 s 720p clip with sound, and frames taken from it', async () => {
    const items = showcaseItems(mediaRoot, buildDemoCatalog(), 3);
    expect(items.filter((i) => i.type === 'video')).toHaveLength(3);
    expect(items.filter((i) => i.type === 'vod')).toHaveLength(1);
    const durations = new Set<number>();
    for (const item of items) {
      const { streams, duration } = await ffprobeStreams(item.file);
      expect(streams.map((st) => `${st.codec_type}:${st.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
      expect(streams.find((st) => st.codec_type === 'video')).toMatchObject({ width: 1280, height: 720 });
      expect(duration).toBeGreaterThanOrEqual(30);
      expect(duration).toBeLessThanOrEqual(60);
      durations.add(Math.round(duration));
      const dir = item.type === 'video' ? 'videothumbs' : 'vodthumbs';
      expect(await jpegSize(join(mediaRoot, dir, item.row.path, `${item.row.path}_10.jpg`))).toEqual([640, 360]);
    }
    expect(durations.size).toBe(3);
  });

  it('makes the showcase clips once per machine: a second run reuses them', async () => {
    const first = await showcaseClips();
    const made = await Promise.all(first.map(async (clip) => (await stat(clip.file)).mtimeMs));
    const again = await showcaseClips();
    expect(again).toEqual(first);
    expect(await Promise.all(again.map(async (clip) => (await stat(clip.file)).mtimeMs))).toEqual(made);
  });

  it('encodes the demo .mpg videos and VODs into browser renditions', { timeout: 120_000 }, async () => {
    const videos: { path: string; prename: string }[] = await db.knex('videos').select('path', 'prename').orderBy('id');
    const vods: { path: string }[] = await db.knex('vods').where({ format: 1 }).select('path').orderBy('id');
    // One of each way a demo file ends up .mpg: named *001.mpg, given 001.mpg, a format-1 VOD.
    const picks = [
      ['video', videos.find((v) => v.prename.endsWith('001.mpg'))?.path],
      ['video', videos.find((v) => videoDownloadName(v.prename).endsWith('001.mpg') && !v.prename.endsWith('.mpg'))?.path],
      ['vod', vods[0]?.path],
    ] as const;
    const jobs = await listJobs(db.knex);
    const ids = picks.map(([type, path]) => jobs.find((j) => j.contentType === type && j.path === path)?.id ?? -1);
    await new EncodeWorker({
      knex: db.knex,
      mediaRoot,
      settings: ENCODE_SETTINGS,
      concurrency: 2,
      leaseMs: 30_000,
      maxAttempts: 1,
      ids,
    }).run();
    for (const job of await listJobs(db.knex, { ids })) {
      expect(job.status, job.error ?? '').toBe('done');
      const manifest = parseManifest(job.manifest);
      expect(manifest?.renditions.map((r) => r.label)).toEqual(['90p']);
      const { streams } = await ffprobeStreams(join(mediaRoot, `${job.contentType}renditions`, job.path, '90p.mp4'));
      expect(streams.map((st) => `${st.codec_type}:${st.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
    }
  });

  it('is idempotent: a second call changes nothing and writes nothing', async () => {
    const generation = await readGeneration(db.knex);
    const counts = await db.knex('photosets').count({ n: '*' });
    const again = await ensureDemo({ knex: db.knex, mediaRoot });
    expect(again.seeded).toBeNull();
    expect(again.migrations).toEqual([]);
    expect(again.media?.written).toBe(0);
    expect(again.encode).toEqual({ items: 88, queued: 0 });
    expect(await readGeneration(db.knex)).toBe(generation);
    expect(await db.knex('photosets').count({ n: '*' })).toEqual(counts);
  });
});

describe.each(testBackends())('ensureDemo with a catalog filled otherwise, on %s', (backend) => {
  const db = useTestDb(backend);

  it('leaves the rows alone and writes no demo media', async () => {
    await db.knex('models').insert({ modelname: 'Someone Else', initial: 'S', thumbnail: null });
    const empty = await mkdtemp(join(tmpdir(), 'seed-media-none-'));
    try {
      const result = await ensureDemo({ knex: db.knex, mediaRoot: empty });
      expect(result).toMatchObject({ seeded: null, media: null });
      expect(await db.knex('models').pluck('modelname')).toEqual(['Someone Else']);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('generated pictures', () => {
  it('are the same for the same picture, and differ between views of one set', async () => {
    const spec = { width: 320, height: 213, key: 'some-set', view: 1 };
    const [one, two, other] = await Promise.all([renderPicture(spec), renderPicture(spec), renderPicture({ ...spec, view: 2 })]);
    expect(one.equals(two)).toBe(true);
    expect(one.equals(other)).toBe(false);
  });
});

describe('sample clips without ffmpeg', () => {
  it('fall back to the committed MP4 for every container', async () => {
    const { clips, source } = await loadSampleClips({ useFfmpeg: false });
    expect(source).toBe('fixture');
    const fixture = await readFile(FIXTURE_CLIP);
    expect(MAGIC.mp4?.(fixture)).toBe(true);
    expect(clips.mpg.equals(fixture) && clips.wmv.equals(fixture)).toBe(true);
  });

  it('still writes every clip of a small catalog under its download name', async () => {
    const full = buildDemoCatalog();
    const catalog = { ...full, photosets: [], freephotosets: [], videos: full.videos.slice(0, 5), vods: full.vods.slice(0, 3) };
    const root = await mkdtemp(join(tmpdir(), 'seed-media-fixture-'));
    try {
      const summary = await writeMediaTree({ mediaRoot: root, catalog, useFfmpeg: false });
      expect(summary.clips).toBe('fixture');
      for (const v of catalog.videos) await expectClip(join(root, 'video', v.path, videoDownloadName(v.prename)));
      for (const v of catalog.vods) await expectClip(join(root, 'vod', v.path, vodDownloadName(v)));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
