import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { raw } from '@media-site/media-service/testing/http';
import { catalogCli } from '../src/catalog-cli';
import { startStack, type Stack } from '../src/stack';

// A takedown through the real front door with the default intervals (no short polls here): the
// thumbnail variant nginx already holds must answer 410 within the documented bound, and a restore
// must bring it back within the same bound. The bound is a correctness limit, not a speed figure.
const BOUND_MS = 15_000;
const ACCEPT = { Accept: 'image/webp,*/*' };

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ frontDoor: 'nginx' });
});
afterAll(async () => {
  await stack?.stop();
});

const catalog = (...argv: string[]) => catalogCli(stack, ...argv);

async function first<T>(table: string, columns: string[], where: Record<string, unknown> = {}): Promise<T> {
  const knex = createKnex(stack.databaseUrl);
  try {
    return (await knex(table).where(where).orderBy('id').first(columns)) as T;
  } finally {
    await knex.destroy();
  }
}

const status = async (path: string) => (await raw(stack.url, path, ACCEPT)).status;

/** Polls until `path` answers `want`; returns the milliseconds it took, or fails after the bound. */
async function within(path: string, want: number, since: number): Promise<number> {
  let last = 0;
  while (Date.now() - since < BOUND_MS) {
    last = await status(path);
    if (last === want) return Date.now() - since;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${path} still answered ${last}, not ${want}, ${BOUND_MS} ms after the change`);
}

/** Fetches twice so the second answer is nginx's cached copy. */
async function cached(path: string): Promise<void> {
  expect(await status(path)).toBe(200);
  const again = await raw(stack.url, path, ACCEPT);
  expect(again.status).toBe(200);
  expect(again.headers['x-cache-status']).toBe('HIT');
  // What browsers get: 5 minutes, then revalidation (the front door's own 5 s is not in this header).
  expect(again.headers['cache-control']).toBe('public, max-age=300, s-maxage=5');
}

describe('a takedown at the front door', () => {
  it('turns a cached thumbnail variant into 410 within 15 s, and a restore brings it back', async () => {
    const video = await first<{ path: string }>('videos', ['path']);
    const variant = `/members/videothumbs/${video.path}/${video.path}_02.jpg?w=320`;
    await cached(variant);

    const down = Date.now();
    expect((await catalog('takedown', `/video/${video.path}`, '--by', 'ops', '--reason', 'front door test')).code).toBe(0);
    const goneAfter = await within(variant, 410, down);
    // The original (kept in nginx's thumbnail cache like its variants, fresh 5 s then revalidated) is gone too.
    expect(await status(`/members/videothumbs/${video.path}/${video.path}_02.jpg`)).toBe(410);

    const back = Date.now();
    expect((await catalog('restore', `/video/${video.path}`, '--by', 'ops', '--reason', 'front door test')).code).toBe(0);
    const backAfter = await within(variant, 200, back);
    console.log(`front door: takedown -> first 410 after ${goneAfter} ms; restore -> first 200 after ${backAfter} ms`);
  });

  it('takes a free photo set down everywhere (API, media, cached variant) and restores it', async () => {
    const set = await first<{ id: number; path: string }>('freephotosets', ['id', 'path']);
    const file = await first<{ filename: string }>('freephotoset_files', ['filename'], { freephotoset_id: set.id });
    const api = `/api/freethumbnails/${set.path}`;
    const variant = `/members/freephotos/${set.path}/${file.filename}?w=320`;
    expect((await raw(stack.url, api)).status).toBe(200);
    await cached(variant);

    const down = Date.now();
    const res = await catalog('takedown', `/freephotos/${set.path}`, '--by', 'ops', '--reason', 'free set test');
    expect(res.err).toBe('');
    expect(res.out).toMatch(new RegExp(`taken down: freephotoset ${set.path}`));
    await within(variant, 410, down);
    await within(api, 404, down);
    expect(await status(`/members/freephotos/${set.path}/${file.filename}`)).toBe(410);

    const back = Date.now();
    expect(
      (await catalog('restore', `/members/freephotos/${set.path}/${file.filename}`, '--by', 'ops', '--reason', 'free set test')).code,
    ).toBe(0);
    await within(variant, 200, back);
    await within(api, 200, back);
  });
});
