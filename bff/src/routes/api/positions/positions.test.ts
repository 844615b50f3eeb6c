import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, startReportKit, type ReportKit } from '../../../test/report-kit';
import { seedPlayback, signInAs } from '../../../test/playback-kit';

describe.each(testBackends())('continue watching: /api/positions (%s)', (backend) => {
  let kit: ReportKit;
  let member: string;
  let buyer: string;
  beforeAll(async () => {
    kit = await startReportKit(backend, seedPlayback);
    [member, buyer] = [await signInAs(kit, 'member_a'), await signInAs(kit, 'buyer_b')];
    clock = Date.now();
    kit.setNow(clock);
  });
  afterAll(() => kit?.close());

  const put = (path: string, body: unknown, cookie = member, headers: Record<string, string> = { Origin: ORIGIN }) =>
    kit.request
      .put(path)
      .set({ Cookie: cookie, ...headers })
      .send(body as object);
  const get = (path: string, cookie = member) => kit.request.get(path).set('Cookie', cookie);
  let clock = 0;
  const tick = () => kit.setNow((clock += 1000));

  it('stores a position and gives it back, to this member only, never cacheable', async () => {
    const saved = await put('/api/positions/video/clip-ready', { seconds: 42.5 });
    expect(saved.status).toBe(200);
    expect(saved.headers['cache-control']).toBe('no-store');
    expect(saved.body).toEqual({ seconds: 42.5, duration: 120.5, completed: false, updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const read = await get('/api/positions/video/clip-ready');
    expect(read.headers['cache-control']).toBe('no-store');
    expect(read.headers.etag).toBeUndefined();
    expect(read.body).toEqual(saved.body);
    expect((await get('/api/playback/video/clip-ready')).body.position).toEqual(saved.body);
    // A second write shows at once: nothing in between kept the first answer.
    await put('/api/positions/video/clip-ready', { seconds: 60 });
    expect((await get('/api/positions/video/clip-ready')).body.seconds).toBe(60);
    expect((await get('/api/positions/vod/show-ready', buyer)).body).toEqual({
      seconds: 0,
      duration: 120.5,
      completed: false,
      updatedAt: null,
    });
  });

  it('lists unfinished videos, most recent first, and forgets on DELETE', async () => {
    tick();
    await put('/api/positions/vod/show-ready', { seconds: 10 }, buyer);
    tick();
    await put('/api/positions/video/clip-preparing', { seconds: 5 });
    const list = await get('/api/positions');
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.body.items).toEqual([
      {
        type: 'video',
        path: 'clip-preparing',
        updatename: 'Title clip-preparing',
        modelname: 'Model A1',
        thumbnail: '/members/videothumbs/clip-preparing/clip-preparing_02.jpg',
        seconds: 5,
        duration: null,
        updatedAt: expect.any(String),
      },
      expect.objectContaining({ type: 'video', path: 'clip-ready', seconds: 60, duration: 120.5 }),
    ]);
    // Watched to the end: it leaves the list.
    expect((await put('/api/positions/video/clip-ready', { seconds: 120 })).body).toMatchObject({ completed: true, seconds: 120 });
    expect((await get('/api/positions')).body.items.map((i: { path: string }) => i.path)).toEqual(['clip-preparing']);
    const gone = await kit.request.delete('/api/positions/video/clip-preparing').set({ Cookie: member, Origin: ORIGIN });
    expect(gone.status).toBe(204);
    expect((await get('/api/positions')).body.items).toEqual([]);
    expect((await get('/api/positions', buyer)).body.items.map((i: { path: string }) => i.path)).toEqual(['show-ready']);
  });

  it('needs a session (401) and the right to play it (403)', async () => {
    expect((await kit.request.get('/api/positions/video/clip-ready')).status).toBe(401);
    expect((await kit.request.get('/api/positions')).status).toBe(401);
    expect((await kit.request.put('/api/positions/video/clip-ready').set('Origin', ORIGIN).send({ seconds: 1 })).status).toBe(401);
    const notBought = await put('/api/positions/vod/show-other', { seconds: 1 }, buyer);
    expect(notBought.status).toBe(403);
    expect(notBought.body.error).toEqual({ code: 'forbidden', message: 'this VOD has not been purchased' });
    expect((await put('/api/positions/video/clip-ready', { seconds: 1 }, buyer)).status).toBe(403);
    expect((await put('/api/positions/video/no-such-clip', { seconds: 1 })).status).toBe(404);
  });

  it.each([
    [{ seconds: -1 }, /seconds must not be negative/],
    [{ seconds: '12' }, /seconds must be a number/],
    [{ seconds: 86_401 }, /at most 86400/],
    [{ seconds: 1, extra: true }, /unrecognized key/i],
    [{}, /seconds/],
    [[1], /expected object/i],
  ])('refuses %j with 400', async (body, message) => {
    const res = await put('/api/positions/video/clip-preparing', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('bad_request');
    expect(res.body.error.message).toMatch(message);
  });

  it('refuses a position past the end of a known length, a large body, and a foreign origin', async () => {
    const past = await put('/api/positions/video/clip-ready', { seconds: 122 });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toBe('seconds must be from 0 to 120.5 (the length of this video)');
    expect((await put('/api/positions/video/clip-ready', { seconds: 121.4 })).body.seconds).toBe(120.5);
    const big = await put('/api/positions/video/clip-ready', { seconds: 1, pad: 'x'.repeat(300) });
    expect(big.status).toBe(413);
    expect((await put('/api/positions/video/clip-ready', { seconds: 1 }, member, {})).status).toBe(403);
    expect((await put('/api/positions/video/clip-ready', { seconds: 1 }, member, { Origin: 'https://evil.example' })).status).toBe(403);
    expect(
      (await put('/api/positions/video/clip-ready', { seconds: 1 }, member, { Origin: ORIGIN, 'Sec-Fetch-Site': 'cross-site' })).status,
    ).toBe(403);
  });

  it('limits writes per member and minute (429)', async () => {
    const limit = kit.deps.settings.positionWritesPerMinute;
    kit.setNow((clock += 120_000));
    kit.deps.settings.positionWritesPerMinute = 3;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await put('/api/positions/video/clip-ready', { seconds: i })).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      // Another member has a budget of their own.
      expect((await put('/api/positions/vod/show-ready', { seconds: 3 }, buyer)).status).toBe(200);
    } finally {
      kit.deps.settings.positionWritesPerMinute = limit;
    }
  });
});
