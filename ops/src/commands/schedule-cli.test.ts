import { beforeAll, describe, expect, it } from 'vitest';
import { readGeneration } from '@media-site/db';
import { nextRelease, scheduledItems } from '@media-site/db/content';
import { testBackends, useTestDb } from '@media-site/db/testing';
import { runOpsCaptured } from './registry';

const t = (iso: string) => Date.parse(iso);

describe.each(testBackends())('catalog schedule and unschedule (%s)', (backend) => {
  const db = useTestDb(backend);
  const clock = t('2026-11-09T12:00:00Z');
  const cli = (...argv: string[]) => runOpsCaptured(argv, { env: {}, knex: db.knex, now: () => clock });
  const publishAt = async (table: string, path: string) =>
    (await db.knex(table).where({ path }).first('publish_at'))?.publish_at as unknown;

  beforeAll(async () => {
    const [modelId] = await db.knex('models').insert({ modelname: 'Model A1', initial: 'M', thumbnail: null });
    const row = { updatename: 'Set', modelname: 'Model A1', model_id: modelId, datetoupload: '2026-10-01', search_text: 'set\nmodel a1' };
    await db.knex('videos').insert({ ...row, path: 'clip-one', prename: 'clip' });
    await db.knex('freephotosets').insert({ path: 'set-one', updatename: 'Free', datetoupload: '2026-10-01' });
  });

  it('schedules by site path or URL in any zone, lists it, unschedules; each bumps the generation', async () => {
    const start = await readGeneration(db.knex);
    const res = await cli('catalog', 'schedule', 'https://site.example/video/clip-one', '2026-12-01T19:00+01:00');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^scheduled for 2026-12-01T18:00:00Z: video clip-one \(catalog generation \d+\)$/);
    expect(Number(await publishAt('videos', 'clip-one'))).toBe(t('2026-12-01T18:00:00Z'));
    expect(await readGeneration(db.knex)).toBe(start + 1);
    expect(await nextRelease(db.knex)).toBe(t('2026-12-01T18:00:00Z'));

    expect((await cli('schedule', '/freephotos/set-one', '2026-11-09T11:00:00Z')).out).toMatch(
      /^published \(time already past\) 2026-11-09T11:00:00Z/,
    );
    const listed = await cli('catalog', 'scheduled', '--json');
    expect(JSON.parse(listed.out)).toEqual([{ content_type: 'video', path: 'clip-one', publish_at: t('2026-12-01T18:00:00Z') }]);
    expect((await cli('catalog', 'scheduled')).out).toBe('2026-12-01T18:00:00Z  video clip-one');

    const un = await cli('catalog', 'unschedule', '/video/clip-one');
    expect(un.code).toBe(0);
    expect(un.out).toMatch(/^unscheduled, published now: video clip-one/);
    expect(await publishAt('videos', 'clip-one')).toBeNull();
    expect(await readGeneration(db.knex)).toBe(start + 3);
    expect(await scheduledItems(db.knex, clock)).toEqual([]);
  });

  it('refuses a bad time or path (exit 2) and an unknown item (exit 1) with a clear message, changing nothing', async () => {
    const start = await readGeneration(db.knex);
    for (const time of ['tomorrow', '2026-12-01', '2026-12-01T18:00:00', '2026-13-01T18:00:00Z', '2100-01-01T00:00:00Z']) {
      const res = await cli('catalog', 'schedule', '/video/clip-one', time);
      expect(res.code, time).toBe(2);
      expect(res.err, time).toMatch(/not an ISO 8601 time with a time zone|is after 2100-01-01T00:00:00Z/);
    }
    const path = await cli('catalog', 'schedule', '/about', '2026-12-01T18:00:00Z');
    expect(path.code).toBe(2);
    expect(path.err).toMatch(/does not name a photo set, free photo set, video or VOD/);
    const unknown = await cli('catalog', 'unschedule', '/video/no-such-clip');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('no video with path no-such-clip');
    expect((await cli('catalog', 'schedule', '/video/clip-one')).code).toBe(2);
    expect(await readGeneration(db.knex)).toBe(start);
    expect(await publishAt('videos', 'clip-one')).toBeNull();
  });
});
