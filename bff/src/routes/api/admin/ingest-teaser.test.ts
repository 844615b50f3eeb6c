import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from '@media-site/ops/cli';
import { teasedItems } from '@media-site/db/content';
import { INGEST_MAX_ATTEMPTS, totpCode } from '@media-site/db/admin';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';
import { buildIngestFolder } from '@media-site/ops/testing-ingest';

const MINUTE = 60_000;
const DAY = 24 * 3_600_000;

// Ingest from the console (a folder under INGEST_ROOT, queued by the bff, run by the
// operator's ingest worker, progress polled from its row) and "Coming soon" teasers.
describe.each(testBackends())('console ingest and Coming soon teasers (%s)', (backend) => {
  let kit: AccountKit;
  let ingestRoot: string;
  let outside: string;
  let mediaRoot: string;
  const secrets = new Map<string, string>();
  let clock = 0;
  const cookies = new Map<string, string>();

  const env = () => ({ USER: 'tester', INGEST_ROOT: ingestRoot, MEDIA_ROOT: mediaRoot, FFMPEG_PATH: '/nonexistent/ffmpeg' });
  const ops = (...argv: string[]) => runOpsCaptured(argv, { env: env(), knex: kit.db.knex, now: () => kit.deps.now() });
  const post = (path: string, who = '') =>
    kit.request
      .post(path)
      .set('Origin', ORIGIN)
      .set('Cookie', cookies.get(who) ?? '');
  const get = (path: string, who = '') =>
    kit.request
      .get(path)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Cookie', cookies.get(who) ?? '');

  async function addAndSignIn(name: string, role: string) {
    const added = await ops('admin', 'add', name, '--role', role);
    expect(added.code, added.err).toBe(0);
    secrets.set(name, /secret: (\S+)/.exec(added.out)![1]!);
    kit.setClockAhead((clock += MINUTE));
    const res = await post('/api/admin/signin/totp').send({ name, code: totpCode(secrets.get(name)!, kit.deps.now()) });
    expect(res.status).toBe(200);
    cookies.set(name, cookieHeader(setCookies(res).filter((c) => c.startsWith('admin_sid='))));
  }

  beforeAll(async () => {
    ingestRoot = await mkdtemp(join(tmpdir(), 'ingest-root-'));
    outside = await mkdtemp(join(tmpdir(), 'ingest-outside-'));
    mediaRoot = await mkdtemp(join(tmpdir(), 'ingest-media-'));
    await rename(await buildIngestFolder(), join(ingestRoot, 'batch one'));
    await mkdir(join(ingestRoot, '.hidden'));
    await writeFile(join(ingestRoot, 'a-file.txt'), 'not a folder');
    await symlink(outside, join(ingestRoot, 'escape'));
    kit = await startAccountKit(backend, {
      RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000',
      INGEST_ROOT: ingestRoot,
      // The CLI's changes reach this bff at its next generation poll (no Redis announcement here).
      CACHE_GENERATION_POLL_MS: '50',
    });
    await addAndSignIn('boss', 'owner');
    await addAndSignIn('mod_one', 'moderator');
    await addAndSignIn('help_one', 'support');
  });
  afterAll(async () => {
    await kit?.close();
    await Promise.all([ingestRoot, outside, mediaRoot].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it('lists only real folders under the ingest root: no files, no links, no hidden folders', async () => {
    const res = await get('/api/admin/ingests', 'mod_one');
    expect(res.status).toBe(200);
    expect(res.body.folders).toEqual(['batch one']);
    expect(res.body.runs).toEqual([]);
  });

  it('refuses what is not one folder inside the root with a 400 that says why, or 404 when absent', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ folder: '..' }, 400, /no paths, no \.\./],
      [{ folder: '../etc' }, 400, /no paths/],
      [{ folder: '/etc' }, 400, /no paths/],
      [{ folder: 'batch one/photos' }, 400, /no paths/],
      [{ folder: 'escape' }, 400, /a link, not a folder/],
      [{ folder: 'a-file.txt' }, 400, /a file, not a folder/],
      [{ folder: '' }, 400, /choose a folder/],
      [{ folder: 'x'.repeat(101) }, 400, /at most 100 characters/],
      [{ folder: 3 }, 400, /folder/],
      [{}, 400, /folder/],
      [{ folder: 'nope' }, 404, /no folder nope/],
    ];
    for (const [body, status, message] of cases) {
      const res = await post('/api/admin/ingests', 'boss').send(body as object);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status);
      expect(res.body.error.message).toMatch(message);
    }
    // A body past the bff's limit is refused before it is read (413).
    expect((await post('/api/admin/ingests', 'boss').send({ folder: 'x'.repeat(100_000) })).status).toBe(413);
    expect(Number((await kit.db.knex('ingest_runs').count({ n: '*' }).first())?.n)).toBe(0);
  });

  it('support may not ingest (403); no session gets 401; a cross-site request gets 403', async () => {
    expect((await post('/api/admin/ingests', 'help_one').send({ folder: 'batch one' })).status).toBe(403);
    expect((await get('/api/admin/ingests', 'help_one')).status).toBe(403);
    expect((await post('/api/admin/ingests').send({ folder: 'batch one' })).status).toBe(401);
    const cross = await kit.request
      .post('/api/admin/ingests')
      .set('Origin', 'https://evil.example')
      .set('Cookie', cookies.get('boss')!)
      .send({ folder: 'batch one' });
    expect(cross.status).toBe(403);
  });

  it('queues one ingest per folder, the worker runs it with progress, and the report and audit rows follow', async () => {
    const queued = await post('/api/admin/ingests', 'mod_one').send({ folder: 'batch one' });
    expect(queued.status).toBe(202);
    const id = queued.body.run.id as number;
    expect(queued.body.run).toMatchObject({ folder: 'batch one', status: 'queued', requestedBy: 'mod_one' });
    // A second one of the same folder while the first is queued: 409.
    const again = await post('/api/admin/ingests', 'boss').send({ folder: 'batch one' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already being ingested/);

    const worker = await ops('ingest-worker', '--once');
    expect(worker.code, worker.err).toBe(0);
    expect(worker.err).toMatch(/ingest \d+ \(batch one\): 7 added, 0 updated, 0 failed/);

    const done = await get(`/api/admin/ingests/${id}`, 'mod_one');
    expect(done.status).toBe(200);
    // Eight items scanned: seven go in, and the VOD whose meta.json names no price is skipped while no default VOD price is set.
    expect(done.body.run).toMatchObject({ status: 'done', done: 8, total: 8, report: { added: 7, updated: 0, failed: [] } });
    expect(done.body.run.report.skipped).toContainEqual({
      where: 'vod/no-price',
      reason: 'meta.json names no price, and no default VOD price is set (console: Prices)',
    });
    expect(done.body.run.report.skipped).toContainEqual({ where: 'photos/no-meta', reason: 'missing meta.json' });
    const audit = await kit.db
      .knex('admin_audit')
      .where('action', 'like', 'content.ingest%')
      .orderBy('id')
      .select('actor', 'action', 'target', 'after_json');
    expect(audit).toMatchObject([
      { actor: 'mod_one', action: 'content.ingest.start', target: 'batch one' },
      { actor: 'mod_one', action: 'content.ingest', target: 'batch one' },
    ]);
    expect(JSON.parse(audit[1]!.after_json as string)).toMatchObject({ added: 7, failed: 0 });

    // The folder is free again: a rerun updates nothing.
    expect((await post('/api/admin/ingests', 'boss').send({ folder: 'batch one' })).status).toBe(202);
    await ops('ingest-worker', '--once');
    const list = await get('/api/admin/ingests', 'boss');
    expect(list.body.runs.map((r: { status: string; report: { unchanged: number } }) => [r.status, r.report.unchanged])).toEqual([
      ['done', 7],
      ['done', 0],
    ]);
  });

  it('a run id that is not a number is 400, an unknown one 404', async () => {
    expect((await get('/api/admin/ingests/abc', 'boss')).status).toBe(400);
    expect((await get('/api/admin/ingests/1234567890', 'boss')).status).toBe(400);
    expect((await get('/api/admin/ingests/999999', 'boss')).status).toBe(404);
  });

  it('a folder that disappears before the worker runs fails with its reason, and frees the folder', async () => {
    await mkdir(join(ingestRoot, 'gone soon'));
    const queued = await post('/api/admin/ingests', 'boss').send({ folder: 'gone soon' });
    expect(queued.status).toBe(202);
    await rm(join(ingestRoot, 'gone soon'), { recursive: true });
    await ops('ingest-worker', '--once');
    const run = (await get(`/api/admin/ingests/${queued.body.run.id}`, 'boss')).body.run;
    expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/no folder gone soon/) });
  });

  it('a run whose worker died goes back to the queue and finishes; one that used up its tries is given up', async () => {
    await mkdir(join(ingestRoot, 'stuck'));
    const diedEarlier = (id: number, attempts: number) =>
      kit.db
        .knex('ingest_runs')
        .where({ id })
        .update({ status: 'running', attempts, heartbeat_at: kit.deps.now() - 11 * MINUTE });
    const run = async (id: number) => (await get(`/api/admin/ingests/${id}`, 'boss')).body.run;
    const first = await post('/api/admin/ingests', 'boss').send({ folder: 'stuck' });
    expect(first.status).toBe(202);
    // Claimed by a worker that died eleven minutes ago: handed back, so asking again is refused.
    await diedEarlier(first.body.run.id, 1);
    expect((await post('/api/admin/ingests', 'boss').send({ folder: 'stuck' })).status).toBe(409);
    expect(await run(first.body.run.id)).toMatchObject({
      status: 'queued',
      error: 'the ingest worker stopped during the run: queued again',
    });
    await ops('ingest-worker', '--once');
    expect(await run(first.body.run.id)).toMatchObject({ status: 'done', error: null });

    const second = await post('/api/admin/ingests', 'boss').send({ folder: 'stuck' });
    await diedEarlier(second.body.run.id, INGEST_MAX_ATTEMPTS);
    const third = await post('/api/admin/ingests', 'boss').send({ folder: 'stuck' });
    expect(third.status).toBe(202);
    expect(await run(second.body.run.id)).toMatchObject({ status: 'failed', error: 'the ingest worker stopped answering (3 tries)' });
    await ops('ingest-worker', '--once');
    expect(await run(third.body.run.id)).toMatchObject({ status: 'done' });
  });

  describe('Coming soon', () => {
    const feedPaths = async () => ((await kit.request.get('/api/updates/1')).body as { path: string }[]).map((i) => i.path);
    const teasers = async () => (await kit.request.get('/api/coming-soon')).body as Record<string, unknown>[];

    it('an untesed scheduled item shows nowhere; teased, it is a teaser card only', async () => {
      const later = new Date(Date.now() + 3 * DAY).toISOString();
      expect((await ops('catalog', 'schedule', '/photos/set-alpha', later)).code).toBe(0);
      expect((await ops('catalog', 'schedule', '/video/clip-hd', later)).code).toBe(0);
      await expect.poll(feedPaths).not.toContain('set-alpha');
      expect(await teasers()).toEqual([]);

      // From the console (owner/moderator); support may only read the list.
      const list = await get('/api/admin/scheduled', 'help_one');
      expect(list.status).toBe(200);
      expect(list.body.items.map((i: { path: string; teased: boolean }) => `${i.path}:${i.teased}`).sort()).toEqual([
        'clip-hd:false',
        'set-alpha:false',
      ]);
      expect((await post('/api/admin/teasers', 'help_one').send({ path: '/photos/set-alpha', teased: true })).status).toBe(403);
      const teased = await post('/api/admin/teasers', 'mod_one').send({ path: '/photos/set-alpha', teased: true });
      expect(teased.status).toBe(200);
      expect(teased.body).toMatchObject({ type: 'photoset', path: 'set-alpha', teased: true });

      await expect.poll(teasers).toHaveLength(1);
      const shown = await teasers();
      expect(shown).toEqual([
        {
          type: 'photoset',
          title: 'Alpha Morning',
          modelname: 'Model A1',
          releaseAt: Date.parse(later),
          thumbnail: '/members/photosthumbs/set-alpha/large.jpg',
        },
      ]);
      // Nothing else of it: not in the feed, no detail, no path in the teaser.
      expect(await feedPaths()).not.toContain('set-alpha');
      expect((await kit.request.get('/api/photos/set/set-alpha')).status).toBe(404);
      expect(JSON.stringify(shown)).not.toContain('"path"');
      // The media service opens only its cover; the rest of its folder stays closed.
      const list2 = (await kit.request.get('/internal/media-takedowns')).body as { scheduled: Record<string, number>; covers: string[] };
      expect(list2.covers).toEqual(['photosthumbs/set-alpha/large.jpg']);
      expect(list2.scheduled['photos/set-alpha/']).toBe(Date.parse(later));

      const audit = await kit.db.knex('admin_audit').where({ action: 'content.tease' }).select('actor', 'target');
      expect(audit).toEqual([{ actor: 'mod_one', target: 'photoset set-alpha' }]);
    });

    it('bad teaser input is a 400 with a message', async () => {
      const cases: [unknown, RegExp][] = [
        [{ path: '/photos/set-alpha' }, /teased/],
        [{ path: '/photos/set-alpha', teased: 'yes' }, /teased/],
        [{ path: '', teased: true }, /give path/],
        [{ path: 'x'.repeat(501), teased: true }, /at most 500/],
        [{ path: '/nowhere/x', teased: true }, /not a photo set, video or VOD/],
        [{ path: '/freephotos/free-one', teased: true }, /only photo sets, videos and VODs/],
      ];
      for (const [body, message] of cases) {
        const res = await post('/api/admin/teasers', 'boss').send(body as object);
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
        expect(res.body.error.message).toMatch(message);
      }
      expect((await post('/api/admin/teasers', 'boss').send({ path: '/photos/nope', teased: true })).status).toBe(404);
    });

    it('the release turns the teaser into the item itself', async () => {
      const at = Number((await kit.db.knex('photosets').where({ path: 'set-alpha' }).first('publish_at')).publish_at);
      // The db service, at times either side of the release.
      expect((await teasedItems(kit.db.knex, Number(at) - 1)).map((t) => t.path)).toEqual(['set-alpha']);
      expect(await teasedItems(kit.db.knex, Number(at))).toEqual([]);
      // Released now (the CLI's unschedule): gone from Coming soon, in the feed, its detail answers.
      const cli = await ops('catalog', 'unschedule', '/photos/set-alpha');
      expect(cli.code, cli.err).toBe(0);
      await expect.poll(teasers).toEqual([]);
      await expect.poll(feedPaths).toContain('set-alpha');
      expect((await kit.request.get('/api/photos/set/set-alpha')).status).toBe(200);
      expect(((await kit.request.get('/internal/media-takedowns')).body as { covers: string[] }).covers).toEqual([]);
    });

    it('catalog tease and tease --off from the CLI', async () => {
      expect((await ops('catalog', 'tease', '/video/clip-hd')).out).toMatch(/^teased: video clip-hd \(teaser shown until /);
      await expect.poll(async () => (await teasers()).map((t) => t.title)).toEqual(['Harbour Run']);
      const off = await ops('catalog', 'tease', '/video/clip-hd', '--off');
      expect(off.out).toMatch(/^not teased: video clip-hd/);
      await expect.poll(teasers).toEqual([]);
      expect((await ops('catalog', 'tease', '/photos/set-beta')).out).toMatch(/not scheduled, so no teaser shows/);
      expect(await teasers()).toEqual([]);
    });
  });
});
