import { expect, it } from 'vitest';
import type { Knex } from 'knex';
import { SAVED_LIMIT, SAVED_RELEASES_LIMIT, savedAnswer, savedList, savedReleases } from '@media-site/contracts/saved-api';
import { restore, takeDown } from '@media-site/db/content';
import { insertCatalog, type Catalog } from '../../../test/fixtures';
import { ORIGIN } from '../../../test/report-kit';
import { seedPlayback, startPlaybackKit } from '../../../test/playback-kit';
import { describeWithKit } from '../../../test/suite';
import { SAVED_WRITES_PER_MINUTE } from './service';

let catalog: Catalog;
async function seed(knex: Knex): Promise<void> {
  catalog = await insertCatalog(knex);
  await seedPlayback(knex);
}

describeWithKit(
  'My list: /api/saved',
  (backend) => startPlaybackKit(backend, seed),
  (kit) => {
    const write = (
      method: 'put' | 'delete',
      path: string,
      cookie: string | undefined,
      headers: Record<string, string> = { Origin: ORIGIN },
    ) => {
      const req = kit().request[method](path).set(headers);
      return cookie ? req.set('Cookie', cookie) : req;
    };
    const list = (cookie: string) => kit().request.get('/api/saved').set('Cookie', cookie);
    let clock = Date.now();
    const tick = () => kit().setNow((clock += 1000));

    it('is a signed-in member’s own: a visitor gets 401 for the list and for a save', async () => {
      expect((await kit().request.get('/api/saved')).status).toBe(401);
      const photo = catalog.photos[0]!.path;
      const res = await write('put', `/api/saved/photo/${photo}`, undefined);
      expect(res.status).toBe(401);
    });

    it('saves a photo set, a video, a VOD and a model, newest first, never cacheable; a second save keeps the first place', async () => {
      const [photo, video, vod, model] = [catalog.photos[1]!, catalog.videos[0]!, catalog.vods[0]!, catalog.models[0]!];
      const saved: string[] = [];
      for (const path of [
        `photo/${photo.path}`,
        `video/${video.path}`,
        `vod/${vod.path}`,
        `model/${encodeURIComponent(model.modelname)}`,
      ]) {
        tick();
        const res = await write('put', `/api/saved/${path}`, kit().member);
        expect(res.status, path).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        savedAnswer.parse(res.body);
        saved.push(res.body.item.savedAt);
      }
      tick();
      const again = await write('put', `/api/saved/photo/${photo.path}`, kit().member);
      expect(again.body.item.savedAt).toBe(saved[0]);

      const res = await list(kit().member);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = savedList.parse(res.body);
      expect(body.limit).toBe(SAVED_LIMIT);
      expect(body.items.map((i) => [i.type, i.key])).toEqual([
        ['model', model.modelname],
        ['vod', vod.path],
        ['video', video.path],
        ['photo', photo.path],
      ]);
      expect(body.items[3]).toEqual({
        type: 'photo',
        key: photo.path,
        title: photo.updatename,
        modelname: photo.modelname,
        thumbnail: `/members/photosthumbs/${photo.path}/large.jpg`,
        savedAt: saved[0],
      });
      expect(body.items[0]).toMatchObject({ title: model.modelname, modelname: null, thumbnail: expect.stringMatching(/^\/members\//) });
      // Another member's list is theirs.
      expect((await list(kit().buyer)).body.items).toEqual([]);
    });

    it("lists the newest items of the saved models, newest first, for home's row; nothing without a saved model", async () => {
      const model = catalog.models[0]!;
      const res = await kit().request.get('/api/saved/releases').set('Cookie', kit().member);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const { items } = savedReleases.parse(res.body);
      const own = [...catalog.photos, ...catalog.videos, ...catalog.vods].filter((i) => i.modelname === model.modelname);
      expect(items).toHaveLength(Math.min(SAVED_RELEASES_LIMIT, own.length));
      expect(items.every((i) => i.modelname === model.modelname)).toBe(true);
      const dates = items.map((i) => i.date);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(dates[0]).toBe(
        own
          .map((i) => i.datetoupload)
          .sort()
          .at(-1),
      );
      expect((await kit().request.get('/api/saved/releases').set('Cookie', kit().buyer)).body).toEqual({ items: [] });
      expect((await kit().request.get('/api/saved/releases')).status).toBe(401);
    });

    it('hides a taken-down item from the list and brings it back, in its place, when restored; it can still be removed', async () => {
      const video = catalog.videos[0]!;
      const ref = { type: 'video' as const, path: video.path };
      await takeDown(kit().db.knex, { ref, actor: 'ops', reason: 'report R-1', now: Date.now() });
      const keys = async () => (await list(kit().member)).body.items.map((i: { key: string }) => i.key);
      expect(await keys()).not.toContain(video.path);
      // Nothing new can be saved while it is down.
      const refused = await write('put', `/api/saved/video/${video.path}`, kit().buyer);
      expect(refused.status).toBe(404);
      expect(refused.body.error.message).toBe(`no video named ${video.path}`);
      await restore(kit().db.knex, { ref, actor: 'ops', reason: 'restored', now: Date.now() });
      expect((await keys())[2]).toBe(video.path);
      await takeDown(kit().db.knex, { ref, actor: 'ops', reason: 'report R-2', now: Date.now() });
      expect((await write('delete', `/api/saved/video/${video.path}`, kit().member)).status).toBe(204);
      await restore(kit().db.knex, { ref, actor: 'ops', reason: 'restored', now: Date.now() });
      expect(await keys()).not.toContain(video.path);
    });

    it('removes on DELETE, and removing what is not there is no error', async () => {
      const vod = catalog.vods[0]!;
      for (let i = 0; i < 2; i++) expect((await write('delete', `/api/saved/vod/${vod.path}`, kit().member)).status).toBe(204);
      expect((await list(kit().member)).body.items.map((i: { key: string }) => i.key)).not.toContain(vod.path);
      expect((await write('delete', '/api/saved/vod/no-such-folder', kit().member)).status).toBe(204);
    });

    it('answers a bad address with a 400 that says why, an unknown item with a 404, another origin with a 403, a body with a 413', async () => {
      const cases: Array<[string, number, RegExp]> = [
        ['/api/saved/album/x', 400, /type must be one of photo, video, vod or model/],
        ['/api/saved/photo/a%20b', 400, /folder must be/],
        [`/api/saved/model/${'x'.repeat(101)}`, 400, /model name must be 1 to 100/],
        ['/api/saved/photo/no-such-set', 404, /no photo set named no-such-set/],
        ['/api/saved/model/Nobody%20Here', 404, /no model named Nobody Here/],
        // The collation's case-insensitive match is not a model's name.
        [`/api/saved/model/${encodeURIComponent(catalog.models[0]!.modelname.toLowerCase())}`, 404, /no model named/],
      ];
      for (const [path, status, message] of cases) {
        const res = await write('put', path, kit().member);
        expect(res.status, path).toBe(status);
        expect(res.body.error.message, path).toMatch(message);
      }
      const photo = catalog.photos[2]!.path;
      expect((await write('put', `/api/saved/photo/${photo}`, kit().member, { Origin: 'https://elsewhere.example' })).status).toBe(403);
      const withBody = await write('put', `/api/saved/photo/${photo}`, kit().member)
        .set('Content-Type', 'application/json')
        .send('{"a":1}');
      expect(withBody.status).toBe(413);
    });

    it(`holds at most ${SAVED_LIMIT} items: the next save is a 409 until one is removed`, async () => {
      const knex = kit().db.knex;
      const buyerId = Number((await knex('members').where({ username: 'buyer_b' }).first('id')).id);
      // Saved rows of ids no item has: they count toward the limit and never show.
      const rows = Array.from({ length: SAVED_LIMIT }, (_, i) => ({
        member_id: buyerId,
        content_type: 'photo',
        content_id: 1_000_000 + i,
        saved_at: 1,
      }));
      for (let i = 0; i < rows.length; i += 100) await knex('saved_items').insert(rows.slice(i, i + 100));
      const photo = catalog.photos[3]!.path;
      const full = await write('put', `/api/saved/photo/${photo}`, kit().buyer);
      expect(full.status).toBe(409);
      expect(full.body.error.message).toBe(`My list holds at most ${SAVED_LIMIT} items: remove one before saving another`);
      await knex('saved_items').where({ member_id: buyerId, content_id: 1_000_000 }).delete();
      expect((await write('put', `/api/saved/photo/${photo}`, kit().buyer)).status).toBe(200);
      expect((await list(kit().buyer)).body.items.map((i: { key: string }) => i.key)).toEqual([photo]);
    });

    it(`takes at most ${SAVED_WRITES_PER_MINUTE} saves and removals a minute per member (429), another member’s budget being theirs`, async () => {
      const photo = catalog.photos[4]!.path;
      for (let i = 0; i < SAVED_WRITES_PER_MINUTE; i++)
        expect((await write(i % 2 ? 'delete' : 'put', `/api/saved/photo/${photo}`, kit().lapsed)).status).toBeLessThan(300);
      const limited = await write('put', `/api/saved/photo/${photo}`, kit().lapsed);
      expect(limited.status).toBe(429);
      expect((await write('put', `/api/saved/photo/${photo}`, kit().member)).status).toBe(200);
    });
  },
);
