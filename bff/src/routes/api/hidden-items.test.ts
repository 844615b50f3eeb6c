import { beforeAll, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { modelInitial, searchText } from '@media-site/db';
import { encodeJobRow, grantVod } from '@media-site/db/testing';
import { schedule, takeDown, tease, type ContentRef, type ContentType } from '@media-site/db/content';
import { insertCatalog, type Catalog } from '../../test/fixtures';
import { MANIFEST, seedPlayback, startPlaybackKit, type PlaybackKit } from '../../test/playback-kit';
import { describeWithKit } from '../../test/suite';

// A scheduled item (publish_at ahead, not teased) and a taken-down one must not be named by any
// public answer: no string of any /api body, wherever it sits, may hold its folder or its title.
// A teased one shows on "Coming soon" as its title and cover URL, and nowhere else. Every item is
// released and seen first (every cache warm), then hidden: no cache may keep naming it.

type How = 'scheduled' | 'teased' | 'taken down';
interface Hidden {
  type: ContentType;
  path: string;
  title: string;
  model: string | null;
  how: How;
}

const HIDDEN: Hidden[] = [
  // Nova Hidden's chosen thumbnail is this set's cover (the first set ingested for her).
  { type: 'photoset', path: 'nova-secret-shoot', title: 'Nova Secret Shoot', model: 'Nova Hidden', how: 'scheduled' },
  // Tessa Soon's chosen thumbnail is this clip's frame.
  { type: 'video', path: 'tessa-teased-clip', title: 'Tessa Teased Clip', model: 'Tessa Soon', how: 'teased' },
  { type: 'vod', path: 'nova-later-show', title: 'Nova Later Show', model: 'Nova Hidden', how: 'scheduled' },
  { type: 'freephotoset', path: 'free-secret-preview', title: 'Free Secret Preview', model: null, how: 'scheduled' },
  // Nina Gone's chosen thumbnail is this set's cover.
  { type: 'photoset', path: 'nina-removed-shoot', title: 'Nina Removed Shoot', model: 'Nina Gone', how: 'taken down' },
  { type: 'video', path: 'nova-removed-clip', title: 'Nova Removed Clip', model: 'Nova Hidden', how: 'taken down' },
  { type: 'vod', path: 'nova-removed-show', title: 'Nova Removed Show', model: 'Nova Hidden', how: 'taken down' },
];
/** Nova Hidden's released items: what her page and thumbnail may show. */
const OPEN = [
  { type: 'photoset', path: 'nova-open-shoot', title: 'Nova Open Shoot', model: 'Nova Hidden' },
  { type: 'video', path: 'nova-open-clip', title: 'Nova Open Clip', model: 'Nova Hidden' },
] as const;
const MODELS: Record<string, string> = {
  'Nova Hidden': '/members/photosthumbs/nova-secret-shoot/large.jpg',
  'Tessa Soon': '/members/videothumbs/tessa-teased-clip/tessa-teased-clip_02.jpg',
  'Nina Gone': '/members/photosthumbs/nina-removed-shoot/large.jpg',
};
const TEASED = HIDDEN.find((h) => h.how === 'teased')!;
const TEASED_COVER = MODELS['Tessa Soon']!;
const UNKNOWN = 'no-such-folder-anywhere';

const TABLE = { photoset: 'photosets', freephotoset: 'freephotosets', video: 'videos', vod: 'vods' } as const;

async function insertItem(knex: Knex, item: { type: ContentType; path: string; title: string; model: string | null }): Promise<number> {
  const base = { path: item.path, updatename: item.title, datetoupload: '2026-01-01' };
  if (item.type === 'freephotoset') {
    const [id] = await knex('freephotosets').insert(base);
    await knex('freephotoset_files').insert({ freephotoset_id: id, position: 1, filename: `${item.path}-1.jpg` });
    return Number(id);
  }
  const model = await knex('models').where({ modelname: item.model }).first('id');
  const row: Record<string, unknown> = {
    ...base,
    modelname: item.model,
    model_id: model.id,
    search_text: searchText(item.title, item.model!),
  };
  if (item.type !== 'photoset') row.prename = `${item.path}_HD`;
  if (item.type === 'vod') Object.assign(row, { format: 0, price: '9.99' });
  const [id] = await knex(TABLE[item.type]).insert(row);
  if (item.type === 'photoset') await knex('photoset_files').insert({ photoset_id: id, position: 1, filename: `${item.path}-1.jpg` });
  else await knex('media_jobs').insert(encodeJobRow(item.type, item.path, JSON.stringify(MANIFEST)));
  return Number(id);
}

let catalog: Catalog;
async function seed(knex: Knex): Promise<void> {
  catalog = await insertCatalog(knex);
  await seedPlayback(knex);
  for (const [modelname, thumbnail] of Object.entries(MODELS))
    await knex('models').insert({ modelname, initial: modelInitial(modelname), thumbnail });
  const ids = new Map<string, number>();
  for (const item of [...HIDDEN, ...OPEN]) ids.set(item.path, await insertItem(knex, item));
  const memberId = async (username: string) => Number((await knex('members').where({ username }).first('id')).id);
  const buyer = await memberId('buyer_b');
  const member = await memberId('member_a');
  // Bought, and watched part way, while they were released.
  for (const path of ['nova-later-show', 'nova-removed-show']) await grantVod(knex, buyer, ids.get(path)!);
  const positions: Array<[number, 'video' | 'vod', string]> = [
    [member, 'video', 'tessa-teased-clip'],
    [member, 'video', 'nova-removed-clip'],
    [buyer, 'vod', 'nova-later-show'],
    [buyer, 'vod', 'nova-removed-show'],
  ];
  for (const [member_id, content_type, path] of positions)
    await knex('playback_positions').insert({
      member_id,
      content_type,
      content_id: ids.get(path)!,
      position_ms: 10_000,
      duration_ms: 120_500,
      updated_at: Date.now(),
    });
}

async function hide(kit: PlaybackKit): Promise<void> {
  const knex = kit.db.knex;
  const later = Date.now() + 3_600_000;
  for (const item of HIDDEN) {
    const ref: ContentRef = { type: item.type, path: item.path };
    if (item.how === 'taken down') await takeDown(knex, { ref, actor: 'ops', reason: 'report R-1', now: Date.now() });
    else await schedule(knex, ref, later);
    if (item.how === 'teased') await tease(knex, ref, true, { actor: 'ops', now: Date.now() });
  }
  // What the CLI's Redis announcement (or the next generation poll) does in a running bff.
  await kit.cache.refreshGeneration();
}

type Who = 'visitor' | 'member' | 'buyer';
interface Answer {
  url: string;
  who: Who;
  status: number;
  body: unknown;
}

/** Every key and string value of a JSON body, however deep. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsOf(v, out);
    }
  return out;
}

/** The hidden items a string names (folder or title, any case). */
function named(s: string): Hidden[] {
  const lower = s.toLowerCase();
  return HIDDEN.filter((h) => lower.includes(h.path) || lower.includes(h.title.toLowerCase()));
}

/** "Coming soon" may show the teased item's title and cover URL, as exactly those values. */
function allowed(answer: Answer, s: string, item: Hidden): boolean {
  return answer.url === '/api/coming-soon' && item === TEASED && (s === TEASED.title || s === TEASED_COVER);
}

function leaksOf(answer: Answer): string[] {
  return stringsOf(answer.body).flatMap((s) =>
    named(s)
      .filter((item) => !allowed(answer, s, item))
      .map((item) => `${answer.who} ${answer.url}: ${JSON.stringify(s)} names ${item.how} ${item.path}`),
  );
}

const LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const LISTINGS = [
  '/api/updates',
  '/api/photos',
  '/api/photos-by-date',
  '/api/videos',
  '/api/videos-by-date',
  '/api/vod',
  '/api/freephotos',
];
const SEARCHES = [...new Set(HIDDEN.flatMap((h) => [...h.title.toLowerCase().split(' '), h.path]))];

function originalOf(item: Hidden): string {
  if (item.type === 'photoset') return `/members/photos/${item.path}/${item.path}.zip`;
  return item.type === 'video' ? `/members/video/${item.path}/${item.path}_HD001.mp4` : `/members/vod/${item.path}/${item.path}_HD.mp4`;
}
const renditionOf = (item: Hidden) =>
  item.type === 'video'
    ? `/members/videorenditions/${item.path}/${item.path}_HD001_720p.mp4`
    : `/members/vodrenditions/${item.path}/${item.path}_HD_720p.mp4`;

/** Routes that take an item's folder, as they name it. */
function itemRoutes(type: ContentType, folder: string): string[] {
  switch (type) {
    case 'photoset':
      return [`/api/photos/set/${folder}`, `/api/thumbnails/${folder}`];
    case 'freephotoset':
      return [`/api/freethumbnails/${folder}`];
    default:
      return [
        `/api/${type === 'video' ? 'videos' : 'vod'}/prename/${folder}`,
        `/api/playback/${type}/${folder}`,
        `/api/positions/${type}/${folder}`,
      ];
  }
}

describeWithKit(
  'no public answer names a scheduled or taken-down item',
  (backend) => startPlaybackKit(backend, seed),
  (kit) => {
    const cookieOf = (who: Who) => (who === 'visitor' ? undefined : who === 'member' ? kit().member : kit().buyer);
    async function get(url: string, who: Who): Promise<Answer> {
      const req = kit().request.get(url);
      const cookie = cookieOf(who);
      const res = await (cookie ? req.set('Cookie', cookie) : req);
      return { url, who, status: res.status, body: res.body as unknown };
    }
    /** Every page of a listing, up to its first empty one. */
    async function pages(route: string): Promise<Answer[]> {
      const out: Answer[] = [];
      for (let page = 1; page <= 20; page++) {
        const answer = await get(`${route}/${page}`, 'visitor');
        out.push(answer);
        if (!Array.isArray(answer.body) || answer.body.length === 0) break;
      }
      return out;
    }
    const everyone = (url: string) => Promise.all((['visitor', 'member', 'buyer'] as const).map((who) => get(url, who)));

    // What a visitor and each member can ask without naming a hidden item: every answer is scanned.
    const PUBLIC: Array<[string, () => Promise<Answer[]>]> = [
      ['every listing page', async () => (await Promise.all(LISTINGS.map(pages))).flat()],
      ['every letter of the models', () => Promise.all(LETTERS.map((l) => get(`/api/models/${l}`, 'visitor')))],
      [
        'every model page',
        async () => {
          const names = (await Promise.all(LETTERS.map((l) => get(`/api/models/${l}`, 'visitor')))).flatMap((a) =>
            (a.body as Array<{ modelname: string }>).map((m) => m.modelname),
          );
          return Promise.all(names.map((n) => get(`/api/modelname/${encodeURIComponent(n)}`, 'visitor')));
        },
      ],
      ['search for every word of their titles and folders', () => Promise.all(SEARCHES.map((t) => get(`/api/search/${t}`, 'visitor')))],
      ['coming soon', () => everyone('/api/coming-soon')],
      [
        'the released items of the same model',
        async () => (await Promise.all(OPEN.flatMap((o) => itemRoutes(o.type, o.path)).map((url) => everyone(url)))).flat(),
      ],
      ['me, account and positions', async () => (await Promise.all(['/api/me', '/api/account', '/api/positions'].map(everyone))).flat()],
      [
        'download links for their files',
        async () =>
          (
            await Promise.all(
              HIDDEN.filter((h) => h.type !== 'freephotoset')
                .flatMap((h) => (h.type === 'photoset' ? [originalOf(h)] : [originalOf(h), renditionOf(h)]))
                .map((path) => everyone(`/api/download-link?path=${encodeURIComponent(path)}`)),
            )
          ).flat(),
      ],
    ];
    const walk = async () => (await Promise.all(PUBLIC.map(async ([, run]) => run()))).flat();

    beforeAll(async () => {
      // Released: every route sees them (the coverage check below) and every cache holds them.
      const before = await walk();
      const seen = new Set(before.flatMap((a) => stringsOf(a.body).flatMap((s) => named(s).map((h) => h.path))));
      const detail = await Promise.all(
        HIDDEN.flatMap((h) => itemRoutes(h.type, h.path).map((url) => get(url, h.type === 'vod' ? 'buyer' : 'member'))),
      );
      expect([...seen].sort()).toEqual(HIDDEN.map((h) => h.path).sort());
      expect(detail.filter((a) => a.status !== 200).map((a) => a.url)).toEqual([]);
      await hide(kit());
    });

    it.each(PUBLIC)('%s: no string names a hidden item', async (_, run) => {
      const answers = await run();
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.filter((a) => a.status >= 500).map((a) => `${a.url} ${a.status}`)).toEqual([]);
      expect(answers.flatMap(leaksOf)).toEqual([]);
    });

    it("answers a hidden item's own routes exactly as for a folder that never existed", async () => {
      for (const item of HIDDEN)
        for (const url of itemRoutes(item.type, item.path))
          for (const who of ['visitor', 'member', 'buyer'] as const) {
            const hidden = await get(url, who);
            const unknown = await get(url.replace(item.path, UNKNOWN), who);
            const asUnknown = JSON.parse(JSON.stringify(hidden.body).replaceAll(item.path, UNKNOWN)) as unknown;
            expect({ who, url, status: hidden.status, body: asUnknown }).toEqual({ who, url, status: unknown.status, body: unknown.body });
          }
    });

    it('shows the teased item on Coming soon as its title and cover only', async () => {
      const { body } = await get('/api/coming-soon', 'visitor');
      const teaser = (body as Array<Record<string, unknown>>).find((t) => t.title === TEASED.title);
      expect(teaser).toMatchObject({ type: 'video', modelname: 'Tessa Soon', thumbnail: TEASED_COVER });
      expect(Object.keys(teaser!).sort()).toEqual(['modelname', 'releaseAt', 'thumbnail', 'title', 'type']);
    });

    it('answers a download link for a hidden item exactly as for a folder that never existed, after the same queries', async () => {
      const knex = kit().db.knex;
      /** The answer, and the statements the bff ran for it (sorted: some run side by side). */
      async function linkFor(path: string, who: Who) {
        const sql: string[] = [];
        const record = (q: { sql: string }) => sql.push(q.sql);
        knex.on('query', record);
        try {
          const answer = await get(`/api/download-link?path=${encodeURIComponent(path)}`, who);
          return { status: answer.status, body: answer.body, sql: sql.sort() };
        } finally {
          knex.removeListener('query', record);
        }
      }
      const noSuchItem = { status: 404, body: { error: { code: 'not_found', message: 'no such item' } } };
      for (const item of HIDDEN.filter((h) => h.type !== 'freephotoset'))
        for (const path of [
          originalOf(item),
          item.type === 'photoset' ? `/members/photos/${item.path}/${item.path}-1.jpg` : renditionOf(item),
        ])
          for (const who of ['visitor', 'member', 'buyer'] as const) {
            const hidden = await linkFor(path, who);
            const unknown = await linkFor(path.replaceAll(item.path, UNKNOWN), who);
            if (who !== 'visitor') expect({ who, path, ...unknown, sql: undefined }).toEqual({ who, path, ...noSuchItem, sql: undefined });
            // Its buyer was shown it, and /api/account lists it as removed: she is told so here too.
            if (who === 'buyer' && item.type === 'vod' && item.how === 'taken down')
              expect({ path, status: hidden.status, body: hidden.body }).toEqual({
                path,
                status: 404,
                body: { error: { code: 'not_found', message: 'this item has been removed' } },
              });
            else expect({ who, path, ...hidden }).toEqual({ who, path, ...unknown });
            expect({ who, path, sql: hidden.sql }).toEqual({ who, path, sql: unknown.sql });
          }
    });

    it("gives a model the cover of a released item of hers: never a hidden item's", async () => {
      const letter = async (l: string) =>
        (await get(`/api/models/${l}`, 'visitor')).body as Array<{ modelname: string; thumbnail: string | null }>;
      const thumbOf = async (name: string) => (await letter(name[0]!)).find((m) => m.modelname === name)?.thumbnail;
      const pageOf = async (name: string) =>
        ((await get(`/api/modelname/${encodeURIComponent(name)}`, 'visitor')).body as { thumbnail: string | null }).thumbnail;
      expect(await thumbOf('Nova Hidden')).toBe('/members/photosthumbs/nova-open-shoot/large.jpg');
      expect(await pageOf('Nova Hidden')).toBe('/members/photosthumbs/nova-open-shoot/large.jpg');
    });

    it('lists no model whose items are all hidden, and answers her page as for a model that never existed', async () => {
      const nobody = 'Tilda Nobody';
      for (const name of ['Tessa Soon', 'Nina Gone']) {
        const listed = await get(`/api/models/${name[0]!}`, 'visitor');
        expect(listed.status).toBe(200);
        expect((listed.body as Array<{ modelname: string }>).map((m) => m.modelname)).not.toContain(name);
        const page = await get(`/api/modelname/${encodeURIComponent(name)}`, 'visitor');
        const unknown = await get(`/api/modelname/${encodeURIComponent(nobody)}`, 'visitor');
        const asUnknown = JSON.parse(JSON.stringify(page.body).replaceAll(name, nobody)) as unknown;
        expect({ name, status: page.status, body: asUnknown }).toEqual({ name, status: 404, body: unknown.body });
      }
    });

    it('lists a model whose only item is scheduled at its release, past every cache', async () => {
      const knex = kit().db.knex;
      const name = 'Rita Later';
      await knex('models').insert({
        modelname: name,
        initial: modelInitial(name),
        thumbnail: '/members/photosthumbs/rita-first-shoot/large.jpg',
      });
      await insertItem(knex, { type: 'photoset', path: 'rita-first-shoot', title: 'Rita First Shoot', model: name });
      const at = Date.now() + 1500;
      await schedule(knex, { type: 'photoset', path: 'rita-first-shoot' }, at);
      await kit().cache.refreshGeneration();
      const seen = async () => [
        ((await get('/api/models/R', 'visitor')).body as Array<{ modelname: string; thumbnail: string | null }>).find(
          (m) => m.modelname === name,
        )?.thumbnail,
        (await get(`/api/modelname/${encodeURIComponent(name)}`, 'visitor')).status,
      ];
      // Cached while hidden: the release must not wait behind a cached answer.
      expect(await seen()).toEqual([undefined, 404]);
      expect(await seen()).toEqual([undefined, 404]);
      // The bff's release timer lists her at her item's release, with no manual step.
      let now = await seen();
      while (now[0] === undefined && Date.now() < at + 5000) {
        await new Promise((r) => setTimeout(r, 50));
        now = await seen();
      }
      expect(Date.now()).toBeGreaterThanOrEqual(at);
      expect(now).toEqual(['/members/photosthumbs/rita-first-shoot/large.jpg', 200]);
    });

    it("follows a model's chosen cover through its schedule and its release, past every cache", async () => {
      const model = catalog.models.find((m) => m.modelname === 'Anna Alpha')!;
      const sets = catalog.photos.filter((p) => p.model_id === model.id);
      const chosen = `/members/photosthumbs/${sets.at(-1)!.path}/large.jpg`;
      const fallback = `/members/photosthumbs/${sets[0]!.path}/large.jpg`;
      expect(model.thumbnail).toBe(chosen);
      const thumbnails = async () => [
        ((await get('/api/models/A', 'visitor')).body as Array<{ modelname: string; thumbnail: string }>).find(
          (m) => m.modelname === model.modelname,
        )?.thumbnail,
        ((await get(`/api/modelname/${encodeURIComponent(model.modelname)}`, 'visitor')).body as { thumbnail: string }).thumbnail,
      ];
      // Cached first: the schedule must not wait behind a cached answer.
      expect(await thumbnails()).toEqual([chosen, chosen]);
      const at = Date.now() + 1500;
      await schedule(kit().db.knex, { type: 'photoset', path: sets.at(-1)!.path }, at);
      await kit().cache.refreshGeneration();
      expect(await thumbnails()).toEqual([fallback, fallback]);
      // The bff's release timer brings the chosen cover back at its time, with no manual step.
      let seen = await thumbnails();
      while (seen[0] !== chosen && Date.now() < at + 5000) {
        await new Promise((r) => setTimeout(r, 50));
        seen = await thumbnails();
      }
      expect(Date.now()).toBeGreaterThanOrEqual(at);
      expect(seen).toEqual([chosen, chosen]);
    });
  },
);
