import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, jobCounts, listJobs, parseManifest } from '@media-site/db/encode';
import { EncodeWorker, topLevelBoxes, type WorkerEvent } from '@media-site/encoder';
import { readGeneration } from '@media-site/db';
import { runOpsCaptured } from './registry';
import { testBackends, type TestDb, useTestDb } from '@media-site/db/testing';
import { ENCODE_SETTINGS, ffprobeStreams, makeClip, placeVideo } from '@media-site/encoder/testing-clips';

const temps: string[] = [];
const temp = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

let folder: string;
let tinyClip: string;
beforeAll(async () => {
  folder = await temp('encode-ingest-src-');
  await makeClip(join(folder, 'video/clip-w/source.wmv'), { container: 'wmv' });
  await writeFile(
    join(folder, 'video/clip-w/meta.json'),
    JSON.stringify({ updatename: 'Wmv Clip', modelname: 'Model A1', datetoupload: '2025-05-01', prename: 'V9_ModelA1_WmvClip_001.wmv' }),
  );
  await makeClip(join(folder, 'vod/show-m/take.mpg'), { container: 'mpg' });
  await writeFile(
    join(folder, 'vod/show-m/meta.json'),
    JSON.stringify({
      updatename: 'Mpg Show',
      modelname: 'Model A1',
      datetoupload: '2025-05-01',
      prename: 'ModelA1_MpgShow',
      format: 1,
      price: 9.99,
    }),
  );
  tinyClip = await makeClip(join(await temp('encode-tiny-'), 'tiny.mp4'), { container: 'mp4', size: '160x90' });
});

function cli(db: TestDb, mediaRoot: string, argv: string[], env: Record<string, string> = {}) {
  return runOpsCaptured(argv, { env: { MEDIA_ROOT: mediaRoot, ENCODE_THREADS: '1', ...env }, knex: db.knex });
}

describe.each(testBackends())('ingest and encode on %s', (backend) => {
  const db = useTestDb(backend);
  let mediaRoot: string;
  beforeAll(async () => {
    mediaRoot = await temp('encode-ingest-media-');
  });

  it('ingest --wait encodes a new .wmv video and .mpg VOD', { timeout: 120_000 }, async () => {
    const result = await cli(db, mediaRoot, ['ingest', folder, '--wait']);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/^encode jobs: 2 queued, 2 waiting/m);
    expect(result.err).toMatch(/^encoded video\/clip-w in [\d.]+ s: 240p, 2\.\d s of video$/m);
    expect(await jobCounts(db.knex)).toEqual({ queued: 0, running: 0, done: 2, failed: 0 });
    expect(await readdir(join(mediaRoot, '.partial'))).toEqual([]);
    // ffprobe's reading at ingest, whole seconds: the listing cards' running time.
    for (const [table, path] of [
      ['videos', 'clip-w'],
      ['vods', 'show-m'],
    ] as const) {
      expect(Number((await db.knex(table).where({ path }).first('duration')).duration), path).toBe(2);
    }
  });

  it('made an H.264 High / AAC rendition with moov before mdat, never larger than the source', async () => {
    for (const family of ['videorenditions/clip-w', 'vodrenditions/show-m']) {
      const file = join(mediaRoot, family, '240p.mp4');
      const { streams } = await ffprobeStreams(file);
      expect(streams).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ codec_type: 'video', codec_name: 'h264', profile: 'High', width: 320, height: 240 }),
          expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
        ]),
      );
      const boxes = await topLevelBoxes(file);
      expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    }
    // The originals stay as ingest stored them, under their download names.
    expect(await readdir(join(mediaRoot, 'video/clip-w'))).toEqual(['V9_ModelA1_WmvClip_001.wmv']);
    expect(await readdir(join(mediaRoot, 'vod/show-m'))).toEqual(['ModelA1_MpgShow.mpg']);
  });

  it('made a poster, a sprite with its WebVTT thumbnails track, and a short trailer', async () => {
    const previews = join(mediaRoot, 'videopreviews/clip-w');
    expect((await readdir(previews)).sort()).toEqual(['poster.jpg', 'sprite.jpg', 'thumbs.vtt', 'trailer.mp4']);
    expect(await sharp(join(previews, 'poster.jpg')).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    const sprite = await sharp(join(previews, 'sprite.jpg')).metadata();
    const vtt = await readFile(join(previews, 'thumbs.vtt'), 'utf8');
    const cues = [...vtt.matchAll(/^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\nsprite\.jpg#xywh=(\d+),(\d+),(\d+),(\d+)$/gm)];
    expect(vtt.startsWith('WEBVTT\n')).toBe(true);
    expect(cues.length).toBeGreaterThanOrEqual(9);
    expect(cues[0]?.[1]).toBe('00:00:00.000');
    for (const [, , , x, y, w, h] of cues) {
      expect(Number(w)).toBe(160);
      expect(Number(h)).toBe(120);
      expect(Number(x) + Number(w)).toBeLessThanOrEqual(sprite.width!);
      expect(Number(y) + Number(h)).toBeLessThanOrEqual(sprite.height!);
    }
    const trailer = join(previews, 'trailer.mp4');
    const probed = await ffprobeStreams(trailer);
    expect(probed.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264' });
    expect(probed.duration).toBeLessThanOrEqual(6.1);
    const boxes = await topLevelBoxes(trailer);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    const [job] = await listJobs(db.knex, { statuses: ['done'] });
    const manifest = parseManifest(job?.manifest);
    expect(manifest).toMatchObject({
      renditions: [
        {
          label: '240p',
          file: '240p.mp4',
          width: 320,
          height: 240,
          mime: expect.stringMatching(/^video\/mp4; codecs="avc1\.6400[0-9a-f]{2}, mp4a\.40\.2"$/),
        },
      ],
      poster: { file: 'poster.jpg', width: 320, height: 240 },
      sprite: { file: 'sprite.jpg', frames: cues.length },
    });
    expect(manifest?.duration).toBeCloseTo(2, 0);
  });

  it('shows the queue in jobs and stats, and a second ingest queues nothing', async () => {
    expect((await cli(db, mediaRoot, ['jobs'])).out).toMatch(/^encode jobs: 2 done, 0 running, 0 queued, 0 failed$/m);
    expect((await cli(db, mediaRoot, ['stats'])).out).toMatch(/^encode jobs {2}2 done, 0 running, 0 queued, 0 failed$/m);
    const again = await cli(db, mediaRoot, ['ingest', folder, '--wait', '--quiet']);
    expect(again.code).toBe(0);
    expect(again.out).not.toMatch(/encode jobs/);
    const json = JSON.parse((await cli(db, mediaRoot, ['jobs', '--json', '--status', 'done'])).out);
    expect(json.jobs.map((j: { path: string }) => j.path).sort()).toEqual(['clip-w', 'show-m']);
    expect((await cli(db, mediaRoot, ['jobs', '--status', 'nope'])).code).toBe(2);
  });

  it('an encode fills a running time ingest could not read, and moves the catalog generation', { timeout: 60_000 }, async () => {
    await db.knex('videos').where({ path: 'clip-w' }).update({ duration: null });
    const before = await readGeneration(db.knex);
    const job = (await listJobs(db.knex, { statuses: ['done'] })).find((j) => j.path === 'clip-w')!;
    await enqueue(db.knex, { type: 'video', path: 'clip-w', sourceSig: job.sourceSig, again: true }, Date.now());
    const result = await cli(db, mediaRoot, ['encode', '--quiet']);
    expect(result.code, result.err).toBe(0);
    expect(Number((await db.knex('videos').where({ path: 'clip-w' }).first('duration')).duration)).toBe(2);
    expect(await readGeneration(db.knex)).toBeGreaterThan(before);
  });

  it('fails a job whose original is not a video, with the reason, and encode exits 1', { timeout: 60_000 }, async () => {
    const original = await placeVideo(db.knex, mediaRoot, 'broken', tinyClip, 'broken_001.wmv');
    await writeFile(original, 'this is not a video');
    await enqueue(db.knex, { type: 'video', path: 'broken', sourceSig: 'x' }, Date.now());
    const result = await cli(db, mediaRoot, ['encode', '--quiet']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^failed video\/broken \(attempt 1\): ffprobe could not read the file/m);
    const [failed] = await listJobs(db.knex, { statuses: ['failed'] });
    expect(failed).toMatchObject({ path: 'broken', attempts: 1, error: expect.stringMatching(/ffprobe could not read/) });
    expect((await cli(db, mediaRoot, ['jobs'])).out).toMatch(/^failed {3}video\/broken\s+attempt 1 {2}ffprobe could not read/m);
  });

  it('does not work the queue without ffmpeg: the jobs stay queued for a worker that has it', async () => {
    const { id } = await enqueue(db.knex, { type: 'video', path: 'clip-w', sourceSig: 'replaced' }, Date.now());
    const result = await cli(db, mediaRoot, ['encode'], { FFMPEG_PATH: '/nonexistent/ffmpeg' });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^cannot encode: \/nonexistent\/ffmpeg \/ ffprobe do not run/m);
    expect((await listJobs(db.knex, { ids: [id] }))[0]).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('two workers between them never run more jobs than the concurrency limit', { timeout: 120_000 }, async () => {
    const ids: number[] = [];
    for (const path of ['c1', 'c2', 'c3', 'c4', 'c5']) {
      await placeVideo(db.knex, mediaRoot, path, tinyClip);
      ids.push((await enqueue(db.knex, { type: 'video', path, sourceSig: 'new' }, Date.now())).id);
    }
    // Counted in the database, where the limit is kept (jobs leased as running). The workers' own
    // events are not a measure of it: both run in this process, and one worker's "started" can be
    // handled before the other's "done" although that job was marked done first (seen at 3 on a
    // loaded CI machine while the database never had more than 2 running).
    let mostInDb = 0;
    let started = 0;
    const onEvent = (e: WorkerEvent) => {
      if (e.kind === 'started') started++;
    };
    const worker = () =>
      new EncodeWorker({
        knex: db.knex,
        mediaRoot,
        settings: ENCODE_SETTINGS,
        concurrency: 2,
        leaseMs: 30_000,
        maxAttempts: 3,
        ids,
        pollMs: 100,
        onEvent,
      });
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const row = (await db.knex('media_jobs').where({ status: 'running' }).count({ n: '*' }).first()) as { n: number | string };
        mostInDb = Math.max(mostInDb, Number(row.n));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await Promise.all([worker().run(), worker().run()]);
    watching = false;
    await watch;
    expect(started).toBe(5);
    expect(mostInDb).toBeLessThanOrEqual(2);
    expect((await listJobs(db.knex, { ids })).map((j) => j.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
    await mkdir(join(mediaRoot, '.partial'), { recursive: true });
    expect(await readdir(join(mediaRoot, '.partial'))).toEqual([]);
  });
});
