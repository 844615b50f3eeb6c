import { expect, it } from 'vitest';
import { describeCatalog, expectStatuses } from '../../../test/catalog-suite';
import { byDate } from '../../../test/fixtures';

describeCatalog('models', (ctx) => {
  it('lists the models of a letter by name, either case', async () => {
    const thumb = (name: string) => ctx().catalog.models.find((m) => m.modelname === name)!.thumbnail;
    const a = [
      { modelname: 'Alice Beta', thumbnail: thumb('Alice Beta') },
      { modelname: 'Anna Alpha', thumbnail: thumb('Anna Alpha') },
    ];
    expect((await ctx().request.get('/api/models/A').expect(200)).body).toEqual(a);
    expect((await ctx().request.get('/api/models/a').expect(200)).body).toEqual(a);
    // Diacritics are folded into the letter: Émilie is listed under E.
    expect((await ctx().request.get('/api/models/e').expect(200)).body).toEqual([
      { modelname: 'Émilie Ñoño', thumbnail: thumb('Émilie Ñoño') },
    ]);
    expect((await ctx().request.get('/api/models/Q').expect(200)).body).toEqual([]);
  });

  it.each(['1', 'AB', '%23', '%C3%89', '-'])('rejects letter %j with 400', async (letter) => {
    const res = await ctx().request.get(`/api/models/${letter}`).expect(400);
    expect(res.body.error.message).toMatch(/letter/);
  });

  it('gives a model its photos, videos and VODs', async () => {
    const name = 'Émilie Ñoño';
    const { photos, videos, vods } = ctx().catalog;
    const own = <T extends { modelname: string }>(rows: T[]) => rows.filter((r) => r.modelname === name);
    const res = await ctx()
      .request.get(`/api/modelname/${encodeURIComponent(name)}`)
      .expect(200);
    expect(res.body.photos).toEqual(
      own(photos)
        .sort(byDate)
        .map((p) => ({
          photo_id: p.id,
          path: p.path,
          updatename: p.updatename,
          datetoupload: p.datetoupload,
          thumbnail: `/members/photosthumbs/${p.path}/large.jpg`,
          photocount: p.photocount,
        })),
    );
    expect(res.body.videos.map((v: { video_id: number }) => v.video_id)).toEqual(
      own(videos)
        .sort(byDate)
        .map((v) => v.id),
    );
    expect(res.body.vods.map((v: { vod_id: number }) => v.vod_id)).toEqual(
      own(vods)
        .sort(byDate)
        .map((v) => v.id),
    );
    expect(Object.keys(res.body.videos[0]).sort()).toEqual([
      'datetoupload',
      'duration',
      'path',
      'preview',
      'thumbnail',
      'updatename',
      'video_id',
    ]);
    expect(res.body.videos.map((v: { duration: number | null }) => v.duration)).toEqual(
      own(videos)
        .sort(byDate)
        .map((v) => v.duration),
    );
    expect(res.body.vods.map((v: { duration: number | null }) => v.duration)).toEqual(
      own(vods)
        .sort(byDate)
        .map((v) => v.duration),
    );
    expect(res.body.videos.map((v: { preview: string | null }) => v.preview)).toEqual(
      own(videos)
        .sort(byDate)
        .map((v) => v.preview),
    );
    expect(res.body.vods.length).toBeGreaterThan(0);
  });

  it('404s an unknown model (names match exactly) and 400s a bad name', async () => {
    const res = await ctx().request.get('/api/modelname/Nobody').expect(404);
    expect(res.body.error.code).toBe('not_found');
    await expectStatuses(ctx().request, [
      ['/api/modelname/anna%20alpha', 404],
      [`/api/modelname/${'n'.repeat(101)}`, 400],
      ['/api/modelname/%20%20', 400],
      ['/api/modelname/a%0Ab', 400],
    ]);
  });
});
