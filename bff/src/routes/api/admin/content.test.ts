import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from '@media-site/ops/cli';
import { readGeneration, searchText } from '@media-site/db';
import { totpCode } from '@media-site/db/admin';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';

const MINUTE = 60_000;

// The console's Content screen: search, edit, schedule, re-encode; roles and limits.
describe.each(testBackends())('console content routes (%s)', (backend) => {
  let kit: AccountKit;
  const secrets = new Map<string, string>();
  const cookies = new Map<string, string>();
  let clock = 0;

  const ops = (...argv: string[]) => runOpsCaptured(argv, { env: { USER: 'tester' }, knex: kit.db.knex, now: () => kit.deps.now() });
  const post = (path: string, who: string) =>
    kit.request
      .post(path)
      .set('Origin', ORIGIN)
      .set('Cookie', cookies.get(who) ?? '');
  const get = (path: string, who: string) =>
    kit.request
      .get(path)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Cookie', cookies.get(who) ?? '');
  const audit = async (action: string) =>
    (await kit.db.knex('admin_audit').where({ action }).orderBy('id').select('actor', 'target', 'before_json', 'after_json')) as Record<
      string,
      string
    >[];

  async function admin(name: string, role: string) {
    const added = await ops('admin', 'add', name, '--role', role);
    expect(added.code, added.err).toBe(0);
    secrets.set(name, /secret: (\S+)/.exec(added.out)?.[1] ?? '');
    kit.setClockAhead((clock += MINUTE));
    const res = await kit.request
      .post('/api/admin/signin/totp')
      .set('Origin', ORIGIN)
      .send({ name, code: totpCode(secrets.get(name)!, kit.deps.now()) });
    expect(res.status).toBe(200);
    cookies.set(name, cookieHeader(setCookies(res).filter((c) => c.startsWith('admin_sid='))));
  }

  beforeAll(async () => {
    kit = await startAccountKit(backend, { RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000' });
    const { knex } = kit.db;
    const [modelId] = await knex('models').insert({ modelname: 'Anna Alpha', initial: 'A', thumbnail: null });
    const row = (path: string, title: string, date: string) => ({
      path,
      updatename: title,
      modelname: 'Anna Alpha',
      model_id: Number(modelId),
      datetoupload: date,
      search_text: searchText(title, 'Anna Alpha'),
    });
    await knex('photosets').insert(row('set-one', 'Sunny garden', '2024-05-01'));
    await knex('videos').insert({ ...row('clip-one', 'Beach walk', '2024-06-01'), prename: 'clipHD' });
    await knex('videos').insert({ ...row('clip-two', 'City lights', '2024-04-01'), prename: 'clip2' });
    await knex('freephotosets').insert({ path: 'free-one', updatename: 'Free sampler', datetoupload: '2024-02-01' });
    await knex('media_jobs').insert({
      content_type: 'video',
      path: 'clip-one',
      source_sig: '10-20',
      status: 'failed',
      attempts: 3,
      error: 'ffmpeg exited with code 1',
      created_at: 1,
      updated_at: 2,
    });
    await knex('media_jobs').insert({
      content_type: 'video',
      path: 'clip-two',
      source_sig: '1-2',
      status: 'running',
      attempts: 1,
      created_at: 1,
      updated_at: 2,
    });
    await admin('boss', 'owner');
    await admin('mod_one', 'moderator');
    await admin('help_one', 'support');
  });
  afterAll(() => kit?.close());

  it('lists every type newest first, filters by type, text and state, and pages', async () => {
    const all = await get('/api/admin/content', 'help_one');
    expect(all.status).toBe(200);
    expect(all.body.items.map((i: { type: string; path: string }) => `${i.type} ${i.path}`)).toEqual([
      'video clip-one',
      'photoset set-one',
      'video clip-two',
      'vod vod-one',
      'freephotoset free-one',
    ]);
    expect(all.body.items[0]).toMatchObject({
      title: 'Beach walk',
      model: 'Anna Alpha',
      date: '2024-06-01',
      publishAt: null,
      takenDown: false,
      encode: { status: 'failed', attempts: 3, error: 'ffmpeg exited with code 1' },
    });
    expect(all.body.items.find((i: { type: string }) => i.type === 'vod').price).toBe('24.50');
    expect(all.body.more).toBe(false);
    const paged = await get('/api/admin/content?pageSize=2&page=2', 'help_one');
    expect(paged.body.items.map((i: { path: string }) => i.path)).toEqual(['clip-two', 'vod-one']);
    expect(paged.body.more).toBe(true);
    const text = await get('/api/admin/content?q=SUNNY', 'help_one');
    expect(text.body.items.map((i: { path: string }) => i.path)).toEqual(['set-one']);
    const literal = await get(`/api/admin/content?q=${encodeURIComponent('%')}`, 'help_one');
    expect(literal.body.items).toEqual([]);
    const videos = await get('/api/admin/content?type=video', 'help_one');
    expect(videos.body.items.map((i: { path: string }) => i.path)).toEqual(['clip-one', 'clip-two']);
    const models = await get('/api/admin/content?type=model&q=anna', 'help_one');
    expect(models.body.items).toMatchObject([{ type: 'model', title: 'Anna Alpha', items: 3 }]);
  });

  it('bounds every query parameter with a 400 that says what is allowed', async () => {
    const cases: Array<[string, RegExp]> = [
      [`q=${'a'.repeat(101)}`, /^q: /],
      ['page=0', /^page: /],
      ['page=201', /^page: /],
      ['page=abc', /^page: /],
      ['pageSize=101', /^pageSize: /],
      ['type=album', /^type: /],
      ['state=gone', /^state: /],
      ['sort=title', /sort/],
    ];
    for (const [query, message] of cases) {
      const res = await get(`/api/admin/content?${query}`, 'mod_one');
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toMatch(message);
    }
    expect((await get('/api/admin/content?page=200&q=' + 'a'.repeat(100), 'mod_one')).status).toBe(200);
  });

  it('support reads but every change is 403; no session is 401; a cross-origin change is 403', async () => {
    for (const [route, body] of [
      ['/api/admin/content/edit', { path: '/photos/set-one', title: 'x' }],
      ['/api/admin/content/schedule', { path: '/photos/set-one', at: null }],
      ['/api/admin/content/reencode', { path: '/video/clip-one' }],
      ['/api/admin/takedowns', { path: '/photos/set-one', reason: 'x' }],
    ] as const) {
      const res = await post(route, 'help_one').send(body);
      expect(res.status, route).toBe(403);
      expect(res.body.error.message).toMatch(/support role may not/);
    }
    expect((await kit.request.get('/api/admin/content').set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
    const cross = await kit.request
      .post('/api/admin/content/edit')
      .set('Origin', 'https://evil.example')
      .set('Cookie', cookies.get('mod_one')!)
      .send({ path: '/photos/set-one', title: 'Hacked' });
    expect(cross.status).toBe(403);
    expect(await audit('content.edit')).toEqual([]);
  });

  it('a moderator edits title, model and date: one audit row with before/after, the search text follows, the generation moves', async () => {
    const before = await readGeneration(kit.db.knex);
    const res = await post('/api/admin/content/edit', 'mod_one').send({
      path: '/photos/set-one',
      title: '  Sunny garden, part two ',
      model: 'Bella Gamma',
      date: '2024-05-02',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.changed).toEqual(['title', 'model', 'date']);
    expect(res.body.item).toMatchObject({ title: 'Sunny garden, part two', model: 'Bella Gamma', date: '2024-05-02' });
    expect(res.body.generation).toBe(before + 1);
    const row = await kit.db.knex('photosets').where({ path: 'set-one' }).first();
    expect(row.search_text).toBe(searchText('Sunny garden, part two', 'Bella Gamma'));
    const model = await kit.db.knex('models').where({ modelname: 'Bella Gamma' }).first('id');
    expect(Number(row.model_id)).toBe(Number(model.id));
    expect(await audit('content.edit')).toEqual([
      {
        actor: 'mod_one',
        target: 'photoset set-one',
        before_json: JSON.stringify({ title: 'Sunny garden', model: 'Anna Alpha', date: '2024-05-01' }),
        after_json: JSON.stringify({ title: 'Sunny garden, part two', model: 'Bella Gamma', date: '2024-05-02' }),
      },
    ]);
    // The same values again change nothing and write nothing.
    const again = await post('/api/admin/content/edit', 'mod_one').send({ path: '/photos/set-one', title: 'Sunny garden, part two' });
    expect(again.body).toMatchObject({ changed: [], generation: null });
    expect(await audit('content.edit')).toHaveLength(1);
    // The CLI's `catalog edit` is the same service.
    const cli = await ops('catalog', 'edit', '/vod/vod-one', '--price', '19.9', '--title', 'VOD one, remastered');
    expect(cli.code, cli.err).toBe(0);
    expect(cli.out).toMatch(/edited title, price: vod vod-one/);
    const vod = await kit.db.knex('vods').where({ path: 'vod-one' }).first('price', 'updatename');
    expect(Number(vod.price)).toBe(19.9);
    expect((await audit('content.edit')).at(-1)).toMatchObject({ actor: 'cli:tester', target: 'vod vod-one' });
    // Search compares folded text, as the site's search does: no accents or case needed.
    expect((await ops('catalog', 'edit', '/video/clip-one', '--title', 'Crème Brûlée walk')).code).toBe(0);
    const folded = await get('/api/admin/content?q=creme%20brulee', 'help_one');
    expect(folded.body.items.map((i: { path: string }) => i.path)).toEqual(['clip-one']);
    const byModel = await get('/api/admin/content?q=bella', 'help_one');
    expect(byModel.body.items.map((i: { path: string }) => i.path)).toEqual(['set-one']);
    expect((await ops('catalog', 'edit', '/photos/set-one', '--price', '5')).code).toBe(2);
    expect((await ops('catalog', 'edit', '/photos/nope', '--title', 'x')).code).toBe(1);
  });

  it('sets tags from the console and the CLI: folded, the whole list, audited; the list shows them', async () => {
    const before = await readGeneration(kit.db.knex);
    const res = await post('/api/admin/content/edit', 'mod_one').send({
      path: '/video/clip-two',
      tags: ['Night', ' City  Lights ', 'night'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ changed: ['tags'], generation: before + 1, item: { tags: ['city lights', 'night'] } });
    const last = (await audit('content.edit')).at(-1)!;
    expect(last).toMatchObject({ actor: 'mod_one', target: 'video clip-two' });
    expect(JSON.parse(last.before_json!)).toEqual({ tags: [] });
    expect(JSON.parse(last.after_json!)).toEqual({ tags: ['night', 'city lights'] });
    // The same tags in another order change nothing.
    const again = await post('/api/admin/content/edit', 'mod_one').send({ path: '/video/clip-two', tags: ['city lights', 'NIGHT'] });
    expect(again.body).toMatchObject({ changed: [], generation: null });
    const videos = await get('/api/admin/content?type=video', 'help_one');
    expect(videos.body.items.map((i: { path: string; tags: string[] }) => [i.path, i.tags])).toEqual([
      ['clip-one', []],
      ['clip-two', ['city lights', 'night']],
    ]);
    const free = await get('/api/admin/content?type=freephotoset', 'help_one');
    expect(free.body.items[0]).not.toHaveProperty('tags');
    const cli = await ops('catalog', 'edit', '/video/clip-two', '--tags', 'Beach, summer,');
    expect(cli.code, cli.err).toBe(0);
    expect(cli.out).toMatch(/edited tags: video clip-two/);
    const tags = async () =>
      (await kit.db.knex('content_tags').where({ content_type: 'video' }).orderBy('tag').select('tag')).map((r) => r.tag as string);
    expect(await tags()).toEqual(['beach', 'summer']);
    expect((await audit('content.edit')).at(-1)).toMatchObject({ actor: 'cli:tester', target: 'video clip-two' });
    expect((await ops('catalog', 'edit', '/video/clip-two', '--tags', '')).code).toBe(0);
    expect(await tags()).toEqual([]);
    const refused = await ops('catalog', 'edit', '/video/clip-two', '--tags', 'sun & sea');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/tags: "sun & sea" may hold only letters, digits, spaces and hyphens/);
  });

  it('refuses a bad edit with a 400 naming the field, before any change', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ path: '/photos/set-one', title: 'x'.repeat(221) }, /^title: /],
      [{ path: '/photos/set-one', title: 'x'.repeat(201) }, /^title: at most 200/],
      [{ path: '/photos/set-one', title: '   ' }, /^title: must not be empty/],
      [{ path: '/photos/set-one', title: 'two\nlines' }, /^title: no line breaks/],
      [{ path: '/photos/set-one', model: 'm'.repeat(101) }, /^model: at most 100/],
      [{ path: '/freephotos/free-one', model: 'Anna Alpha' }, /^model: a free photo set has no model/],
      [{ path: '/photos/set-one', date: '2024-02-30' }, /^date: /],
      [{ path: '/photos/set-one', date: '1 May 2024' }, /^date: /],
      [{ path: '/photos/set-one', date: '1900-01-01' }, /^date: from 1990/],
      [{ path: '/photos/set-one', price: '5' }, /^price: only a VOD/],
      [{ path: '/vod/vod-one', price: '-1' }, /^price: /],
      [{ path: '/vod/vod-one', price: '0' }, /^price: from 0.01/],
      [{ path: '/vod/vod-one', price: '1e3' }, /^price: /],
      [{ path: '/vod/vod-one', date: '2023-01-01' }, /^date: this VOD's file name/],
      [{ path: '/photos/set-one' }, /^nothing to change/],
      [{ path: '/members/nothing/x', title: 'x' }, /^path: /],
      [{ path: 'p'.repeat(501), title: 'x' }, /^path: /],
      [{ path: '/photos/set-one', title: 'x', extra: 1 }, /extra/],
      [{ path: '/photos/set-one', tags: ['beach', 'sun & sea'] }, /^tags: "sun & sea" may hold only letters, digits, spaces and hyphens$/],
      [{ path: '/photos/set-one', tags: ['x'.repeat(33)] }, /^tags: "x+" is longer than 32 characters$/],
      [{ path: '/photos/set-one', tags: Array.from({ length: 13 }, (_, i) => `tag ${i}`) }, /^tags: at most 12$/],
      [{ path: '/freephotos/free-one', tags: ['beach'] }, /^tags: free photo sets have no tags$/],
      [{ path: '/photos/set-one', tags: Array.from({ length: 25 }, () => 'beach') }, /^tags: /],
      [{ path: '/photos/set-one', tags: ['x'.repeat(129)] }, /^tags/],
      [{ path: '/photos/set-one', tags: 'beach' }, /^tags: /],
    ];
    const edits = (await audit('content.edit')).length;
    for (const [body, message] of cases) {
      const res = await post('/api/admin/content/edit', 'mod_one').send(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body).slice(0, 80)).toMatch(message);
    }
    expect((await post('/api/admin/content/edit', 'mod_one').send({ path: '/photos/none', title: 'x' })).status).toBe(404);
    expect(await audit('content.edit')).toHaveLength(edits);
  });

  it('schedules and unschedules with the CLI rules; the list shows it under "scheduled"', async () => {
    const at = new Date(kit.deps.now() + 60 * MINUTE);
    at.setUTCMilliseconds(0);
    const res = await post('/api/admin/content/schedule', 'mod_one').send({ path: '/video/clip-two', at: at.toISOString() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.item.publishAt).toBe(at.getTime());
    const scheduled = await get('/api/admin/content?state=scheduled', 'help_one');
    expect(scheduled.body.items.map((i: { path: string }) => i.path)).toEqual(['clip-two']);
    const live = await get('/api/admin/content?state=live&type=video', 'help_one');
    expect(live.body.items.map((i: { path: string }) => i.path)).toEqual(['clip-one']);
    for (const bad of ['tomorrow', '2026-12-01T18:00:00', '2101-01-01T00:00:00Z', 'x'.repeat(41)]) {
      const refused = await post('/api/admin/content/schedule', 'mod_one').send({ path: '/video/clip-two', at: bad });
      expect(refused.status, bad).toBe(400);
    }
    expect((await post('/api/admin/content/schedule', 'mod_one').send({ path: '/video/clip-two' })).status).toBe(400);
    const off = await post('/api/admin/content/schedule', 'mod_one').send({ path: '/video/clip-two', at: null });
    expect(off.body.item.publishAt).toBeNull();
    expect((await audit('content.schedule')).at(-1)).toMatchObject({ actor: 'mod_one', target: 'video clip-two' });
    expect((await audit('content.unschedule')).at(-1)).toMatchObject({ actor: 'mod_one', target: 'video clip-two' });
  });

  it('re-encodes a failed or done clip with fresh attempts; refuses a running or waiting one, one never queued, and a photo set', async () => {
    const res = await post('/api/admin/content/reencode', 'mod_one').send({ path: '/video/clip-one' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.item.encode).toMatchObject({ status: 'queued', attempts: 0, error: null });
    expect(await audit('content.reencode')).toEqual([
      {
        actor: 'mod_one',
        target: 'video clip-one',
        before_json: JSON.stringify({ status: 'failed', attempts: 3, error: 'ffmpeg exited with code 1' }),
        after_json: JSON.stringify({ status: 'queued', attempts: 0 }),
      },
    ]);
    const running = await post('/api/admin/content/reencode', 'mod_one').send({ path: '/video/clip-two' });
    expect(running.status).toBe(409);
    expect(running.body.error.message).toMatch(/being encoded now/);
    const never = await post('/api/admin/content/reencode', 'mod_one').send({ path: '/vod/vod-one' });
    expect(never.status).toBe(404);
    expect(never.body.error.message).toMatch(/no encode job yet/);
    expect((await post('/api/admin/content/reencode', 'mod_one').send({ path: '/photos/set-one' })).status).toBe(400);
    const waiting = await post('/api/admin/content/reencode', 'mod_one').send({ path: '/video/clip-one' });
    expect(waiting.status).toBe(409);
    expect(waiting.body.error.message).toMatch(/already waiting in the encode queue/);
    // The CLI's `catalog reencode` is the same service: a finished job is queued again.
    await kit.db.knex('media_jobs').where({ path: 'clip-one' }).update({ status: 'done', attempts: 1 });
    const cli = await ops('catalog', 'reencode', '/video/clip-one');
    expect(cli.code, cli.err).toBe(0);
    expect((await ops('catalog', 'reencode', '/video/clip-one')).code).toBe(1);
    expect(await audit('content.reencode')).toHaveLength(2);
  });

  describe('bulk changes: POST /api/admin/content/bulk', () => {
    const bulk = (who: string, body: object) => post('/api/admin/content/bulk', who).send(body);
    const paths = ['/photos/set-one', '/video/clip-one', '/freephotos/free-one', '/video/no-such-clip', 'not a path'];
    const takedowns = async () => Number((await kit.db.knex('takedowns').count({ n: '*' }).first())?.n);

    it('previews what would change and changes nothing; applies each item with its own audit row; says what was already so', async () => {
      const auditBefore = (await audit('content.takedown')).length;
      const preview = await bulk('mod_one', { action: 'takedown', paths, reason: 'Consent withdrawn', preview: true });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body).toEqual({
        action: 'takedown',
        preview: true,
        changed: 3,
        items: [
          { path: '/photos/set-one', title: expect.any(String), outcome: 'changed', detail: 'taken down' },
          { path: '/video/clip-one', title: expect.any(String), outcome: 'changed', detail: 'taken down' },
          { path: '/freephotos/free-one', title: 'Free sampler', outcome: 'changed', detail: 'taken down' },
          { path: '/video/no-such-clip', title: null, outcome: 'failed', detail: 'no such item' },
          { path: 'not a path', title: null, outcome: 'failed', detail: 'not a photo set, free photo set, video or VOD path' },
        ],
      });
      expect(await takedowns()).toBe(0);

      const applied = await bulk('mod_one', { action: 'takedown', paths: [...paths, '/photos/set-one'], reason: 'Consent withdrawn' });
      expect(applied.body.changed).toBe(3);
      expect(applied.body.items).toHaveLength(5);
      expect(await takedowns()).toBe(3);
      const rows = (await audit('content.takedown')).slice(auditBefore);
      expect(rows.map((r) => [r.actor, r.target])).toEqual([
        ['mod_one', 'photoset set-one'],
        ['mod_one', 'video clip-one'],
        ['mod_one', 'freephotoset free-one'],
      ]);

      const again = await bulk('mod_one', { action: 'takedown', paths: paths.slice(0, 3), reason: 'Consent withdrawn' });
      expect(again.body.items.map((i: { detail: string }) => i.detail)).toEqual([
        'already taken down',
        'already taken down',
        'already taken down',
      ]);
      const restored = await bulk('mod_one', { action: 'restore', paths: paths.slice(0, 3), reason: 'Consent confirmed' });
      expect(restored.body.changed).toBe(3);
      expect(await takedowns()).toBe(0);
      expect((await audit('content.restore')).slice(-3).map((r) => r.actor)).toEqual(['mod_one', 'mod_one', 'mod_one']);
    });

    it('re-encodes only what can be, and schedules and unschedules many at once', async () => {
      const reencode = await bulk('mod_one', { action: 'reencode', paths: ['/photos/set-one', '/video/clip-two'], preview: true });
      expect(reencode.body.items.map((i: { outcome: string; detail: string }) => [i.outcome, i.detail])).toEqual([
        ['failed', 'only videos and VODs are encoded'],
        ['unchanged', 'already queued or encoding'],
      ]);
      const at = new Date(kit.deps.now() + 3_600_000).toISOString();
      const scheduled = await bulk('mod_one', { action: 'schedule', paths: ['/photos/set-one', '/freephotos/free-one'], at });
      expect(scheduled.body.changed).toBe(2);
      expect(scheduled.body.items[0].detail).toBe(`released at ${at.replace(/\.\d{3}Z$/, 'Z')}`);
      const published = await bulk('mod_one', {
        action: 'unschedule',
        paths: ['/photos/set-one', '/freephotos/free-one', '/video/clip-one'],
      });
      expect(published.body.items.map((i: { detail: string }) => i.detail)).toEqual([
        'published now',
        'published now',
        'already published',
      ]);
    });

    it('refuses support (403), a takedown without a reason, a schedule without a time, and over 100 items (400)', async () => {
      expect((await bulk('help_one', { action: 'unschedule', paths: ['/photos/set-one'] })).status).toBe(403);
      const noReason = await bulk('mod_one', { action: 'takedown', paths: ['/photos/set-one'] });
      expect([noReason.status, noReason.body.error.message]).toEqual([400, 'reason: say why (the audit log keeps it)']);
      const noTime = await bulk('mod_one', { action: 'schedule', paths: ['/photos/set-one'] });
      expect(noTime.status).toBe(400);
      const many = await bulk('mod_one', { action: 'unschedule', paths: Array.from({ length: 101 }, (_, i) => `/photos/set-${i}`) });
      expect(many.status).toBe(400);
      expect(many.body.error.message).toMatch(/at most 100 items in one change/);
      expect(await takedowns()).toBe(0);
    });
  });
});
