import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchText } from '@media-site/db';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, pay, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { consoleSession } from '../../../test/console-session';
import { ACTIVITY_REPORTS_PER_MINUTE } from '../activity/routes';

const DAY = 86_400_000;

// "What sells" (the console's Stats): plays and finishes from the player, downloads where links
// are minted, saves, VOD sales and revenue at settlement; each member's play, finish or download
// once per item and day; per item, per model, per day; money for the owner and support only.
describe.each(testBackends())('console stats (%s)', (backend) => {
  let kit: AccountKit;
  let fan = '';
  let stranger = '';
  const consoles: Record<string, string> = {};

  const stats = (who: string, query = '') =>
    kit.request
      .get(`/api/admin/stats${query}`)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Cookie', consoles[who] ?? '');
  const activity = (cookie: string, type: string, folder: string, event: unknown) =>
    kit.request.post(`/api/activity/${type}/${folder}`).set({ Origin: ORIGIN, Cookie: cookie }).send({ event });
  const row = (body: { rows: Array<{ path: string }> }, path: string) => body.rows.find((r) => r.path === path);

  beforeAll(async () => {
    kit = await startAccountKit(backend, { RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000' });
    const knex = kit.db.knex;
    const [modelId] = await knex('models').insert({ modelname: 'Model S1', initial: 'M' });
    const item = (title: string, path: string) => ({
      path,
      updatename: title,
      modelname: 'Model S1',
      model_id: Number(modelId),
      datetoupload: '2024-03-01',
      search_text: searchText(title, 'Model S1'),
    });
    await knex('videos').insert({ ...item('Stats clip', 'stats-clip'), prename: 'stats clip.mp4' });
    await knex('videos').insert({ ...item('Quiet clip', 'quiet-clip'), prename: 'quiet clip.mp4' });
    await knex('vods').insert({ ...item('Stats VOD', 'stats-vod'), prename: 'stats vod', format: 0, price: '9.99' });
    await pay(kit, { username: 'stats_fan' });
    fan = (await signIn(kit, 'stats_fan')).cookie;
    const bought = await pay(kit, { username: 'stats_fan', vod: 'stats-vod', cookie: fan, credentials: false });
    expect(bought.result.body).toEqual({ approved: true, status: 'approved' });
    await pay(kit, { username: 'stats_other' });
    stranger = (await signIn(kit, 'stats_other')).cookie;
    for (const role of ['owner', 'moderator', 'support'] as const) consoles[role] = await consoleSession(kit, `stats_${role}`, role);
  });
  afterAll(async () => {
    await kit.close();
  });

  it('counts a play, a finish and a download once per member, item and day; a save and a sale as they happen', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await activity(fan, 'video', 'stats-clip', 'play')).status).toBe(204);
    }
    expect((await activity(fan, 'video', 'stats-clip', 'complete')).status).toBe(204);
    expect((await activity(stranger, 'video', 'stats-clip', 'play')).status).toBe(204);
    expect((await activity(fan, 'vod', 'stats-vod', 'play')).status).toBe(204);
    for (let i = 0; i < 2; i++) {
      const link = await kit.request
        .get('/api/download-link')
        .query({ path: '/members/video/stats-clip/stats clip.mp4' })
        .set('Cookie', fan);
      expect(link.status).toBe(200);
    }
    const saved = await kit.request.put('/api/saved/video/stats-clip').set({ Origin: ORIGIN, Cookie: fan });
    expect(saved.status).toBe(200);
    expect((await kit.request.put('/api/saved/video/stats-clip').set({ Origin: ORIGIN, Cookie: fan })).status).toBe(200);
    expect((await kit.request.put('/api/saved/model/Model S1').set({ Origin: ORIGIN, Cookie: stranger })).status).toBe(200);

    const res = await stats('owner');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ days: 30, by: 'item', sort: 'plays', page: 1, more: false, money: true, currencyCode: 840 });
    expect(row(res.body, 'stats-clip')).toEqual({
      type: 'video',
      path: 'stats-clip',
      title: 'Stats clip',
      model: 'Model S1',
      plays: 2,
      completions: 1,
      downloads: 1,
      saves: 1,
      sales: 0,
      revenue: 0,
    });
    expect(row(res.body, 'stats-vod')).toMatchObject({ plays: 1, sales: 1, revenue: 999 });
    // Sorted by plays, largest first; an item nothing happened to is not listed.
    expect(res.body.rows.map((r: { path: string }) => r.path)).toEqual(['stats-clip', 'stats-vod']);
    expect(res.body.totals).toEqual({ plays: 3, completions: 1, downloads: 1, saves: 1, sales: 1, revenue: 999 });
    expect(res.body.perDay).toHaveLength(30);
    expect(res.body.perDay.at(-1)).toEqual({ day: res.body.to, plays: 3, completions: 1, downloads: 1, saves: 1, sales: 1, revenue: 999 });
    expect(res.body.perDay[0]).toMatchObject({ day: res.body.from, plays: 0 });

    const byRevenue = await stats('owner', '?sort=revenue');
    expect(byRevenue.body.rows.map((r: { path: string }) => r.path)).toEqual(['stats-vod', 'stats-clip']);
    const models = await stats('owner', '?by=model');
    expect(models.body.rows).toEqual([
      {
        type: 'model',
        path: 'Model S1',
        title: 'Model S1',
        model: null,
        follows: 1,
        plays: 3,
        completions: 1,
        downloads: 1,
        saves: 1,
        sales: 1,
        revenue: 999,
      },
    ]);
    const hers = await stats('owner', `?model=${encodeURIComponent('Model S1')}&type=vod`);
    expect(hers.body.rows.map((r: { path: string }) => r.path)).toEqual(['stats-vod']);
    const one = await stats('owner', '?type=video&path=stats-clip&days=7');
    expect(one.body.perDay).toHaveLength(7);
    expect(one.body.totals).toEqual({ plays: 2, completions: 1, downloads: 1, saves: 1, sales: 0, revenue: 0 });
  });

  it('sales and revenue are for the owner and support; a moderator sees the rest', async () => {
    const support = await stats('support');
    expect(support.status).toBe(200);
    expect(support.body.money).toBe(true);
    const moderator = await stats('moderator');
    expect(moderator.status).toBe(200);
    expect(moderator.body.money).toBe(false);
    expect(moderator.body.totals).not.toHaveProperty('revenue');
    expect(row(moderator.body, 'stats-vod')).not.toHaveProperty('sales');
    const refused = await stats('moderator', '?sort=revenue');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('sales and revenue are for the owner and support');
    expect((await kit.request.get('/api/admin/stats').set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
  });

  it('a bad question is a 400 naming it; an unknown model or item a 404', async () => {
    const cases: Array<[string, string]> = [
      ['?days=365', 'days must be one of 7, 30, 90'],
      ['?sort=price', 'sort must be one of plays, completions, downloads, saves, sales, revenue'],
      ['?type=model', 'type must be one of photo, video, vod'],
      ['?by=day', 'by must be item or model'],
      ['?path=stats-clip', 'path needs type (photo, video or vod)'],
      ['?by=model&model=x', 'by=model lists every model: drop model and path, or ask by=item'],
      ['?page=0', 'page must be a whole number from 1 to 200'],
      ['?page=201', 'page must be a whole number from 1 to 200'],
      ['?colour=red', 'colour'],
    ];
    for (const [query, message] of cases) {
      const res = await stats('owner', query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.error.message).toContain(message);
    }
    expect((await stats('owner', '?model=Nobody')).body.error.message).toBe('no model named Nobody');
    expect((await stats('owner', '?type=vod&path=none')).status).toBe(404);
  });

  it("a play counts only for a member the item is granted to, in a body it can read, within the member's budget", async () => {
    // Not bought: refused, not counted.
    await kit.db.knex('vods').insert({
      path: 'unbought-vod',
      updatename: 'Unbought',
      modelname: 'Model S1',
      datetoupload: '2024-03-01',
      search_text: searchText('Unbought', 'Model S1'),
      prename: 'unbought',
      format: 0,
      price: '5.00',
    });
    expect((await activity(stranger, 'vod', 'unbought-vod', 'play')).status).toBe(403);
    expect((await kit.request.post('/api/activity/video/stats-clip').set('Origin', ORIGIN).send({ event: 'play' })).status).toBe(401);
    const bad = await activity(fan, 'video', 'stats-clip', 'download');
    expect({ status: bad.status, message: bad.body.error.message }).toEqual({
      status: 400,
      message: 'event: event must be play or complete',
    });
    expect((await activity(fan, 'photos', 'stats-clip', 'play')).status).toBe(400);
    expect((await activity(fan, 'video', 'no-such-clip', 'play')).status).toBe(404);
    const long = await kit.request
      .post('/api/activity/video/stats-clip')
      .set({ Origin: ORIGIN, Cookie: fan, 'Content-Type': 'application/json' })
      .send(JSON.stringify({ event: 'play', pad: 'x'.repeat(400) }));
    expect(long.status).toBe(413);
    const foreign = await kit.request
      .post('/api/activity/video/stats-clip')
      .set({ Origin: 'https://elsewhere.example', Cookie: fan })
      .send({ event: 'play' });
    expect(foreign.status).toBe(403);
    let status = 204;
    for (let i = 0; i < ACTIVITY_REPORTS_PER_MINUTE + 1 && status !== 429; i++)
      status = (await activity(stranger, 'video', 'quiet-clip', 'play')).status;
    expect(status).toBe(429);
    const quiet = await stats('owner', '?type=video&path=quiet-clip');
    expect(quiet.body.totals.plays).toBe(1);
  });

  it('a new day counts again, and the window moves with it', async () => {
    kit.setClockAhead(DAY);
    // A day later the console session has ended (idle): a fresh one.
    consoles.owner = await consoleSession(kit, 'stats_owner_next', 'owner');
    expect((await activity(fan, 'video', 'stats-clip', 'play')).status).toBe(204);
    const res = await stats('owner', '?type=video&path=stats-clip&days=7');
    expect(res.body.perDay.slice(-2).map((d: { plays: number }) => d.plays)).toEqual([2, 1]);
    expect(res.body.totals.plays).toBe(3);
  });
});
