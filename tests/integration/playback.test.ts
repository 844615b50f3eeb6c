import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { raw } from '@media-site/media-service/testing/http';
import { signInCookie } from '../src/sign-in';
import { startStack, type Stack } from '../src/stack';

// The seeded site with its background encoder, through the repo's nginx (MEDIA_OFFLOAD=nginx):
// the first demo video the encoder finishes is played by the demo member and previewed by a visitor.
let stack: Stack;
let path: string;
let cookie: string;

async function firstEncodedVideo(databaseUrl: string): Promise<string> {
  const knex = createKnex(databaseUrl);
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const done = await knex('media_jobs').where({ content_type: 'video', status: 'done' }).orderBy('id').first('path');
      if (done) return String(done.path);
      if (Date.now() > deadline) throw new Error('the encoder finished no demo video within 120 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await knex.destroy();
  }
}

beforeAll(async () => {
  stack = await startStack({ frontDoor: 'nginx', encoder: true });
  path = await firstEncodedVideo(stack.databaseUrl);
  cookie = await signInCookie(stack.url);
});
afterAll(async () => {
  await stack?.stop();
});

const api = async (url: string, init: RequestInit = {}) => fetch(`${stack.url}${url}`, init);

describe('playing a demo video through the front door', () => {
  it('tells a visitor it is ready, with public poster, thumbnails track and trailer, and no renditions', async () => {
    const res = await api(`/api/playback/video/${path}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const view = (await res.json()) as {
      access: string;
      state: string;
      renditions: unknown[];
      poster: string;
      thumbnails: string;
      trailer: string;
    };
    expect(view).toMatchObject({ access: 'sign_in', state: 'ready', renditions: [] });
    for (const url of [view.poster, view.thumbnails]) expect((await raw(stack.url, url)).status).toBe(200);
    const vtt = (await raw(stack.url, view.thumbnails)).body.toString();
    expect(vtt).toMatch(/^WEBVTT\n\n00:00:00\.000 --> [\d:.]+\nsprite\.jpg#xywh=0,0,\d+,\d+\n/);
    const trailer = await raw(stack.url, view.trailer, { Range: 'bytes=0-99' });
    expect(trailer.status).toBe(206);
    expect(trailer.headers['cache-control']).toMatch(/^public/);
    expect(trailer.body.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('keeps the renditions for members: 401 for a visitor', async () => {
    const res = await raw(stack.url, `/members/videorenditions/${path}/90p.mp4`);
    expect(res.status).toBe(401);
  });

  it('gives the signed-in member a rendition that plays inline with ranges (X-Accel through nginx)', async () => {
    const view = (await (await api(`/api/playback/video/${path}`, { headers: { Cookie: cookie } })).json()) as {
      access: string;
      renditions: { url: string; label: string; type: string }[];
    };
    expect(view.access).toBe('granted');
    const [rendition] = view.renditions;
    expect(rendition).toMatchObject({
      url: `/members/videorenditions/${path}/90p.mp4`,
      label: '90p',
      type: expect.stringMatching(/^video\/mp4; codecs="avc1\./),
    });
    const head = await raw(stack.url, rendition!.url, { Cookie: cookie, Range: 'bytes=0-99' });
    expect(head.status).toBe(206);
    expect(head.headers['content-type']).toBe('video/mp4');
    expect(head.headers['content-disposition']).toBe(`inline; filename="${path}-90p.mp4"`);
    expect(head.headers['x-accel-redirect']).toBeUndefined();
    expect(head.body.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // moov first (+faststart): the box after ftyp is moov, so playback starts from the first bytes.
    const ftypLength = head.body.readUInt32BE(0);
    const next = await raw(stack.url, rendition!.url, { Cookie: cookie, Range: `bytes=${ftypLength}-${ftypLength + 7}` });
    expect(next.body.subarray(4, 8).toString('latin1')).toBe('moov');
  });

  it('remembers the member position across requests', async () => {
    const put = await api(`/api/positions/video/${path}`, {
      method: 'PUT',
      headers: { Cookie: cookie, Origin: stack.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ seconds: 1.25 }),
    });
    expect(put.status).toBe(200);
    const read = (await (await api(`/api/positions/video/${path}`, { headers: { Cookie: cookie } })).json()) as { seconds: number };
    expect(read.seconds).toBe(1.25);
    const list = (await (await api('/api/positions', { headers: { Cookie: cookie } })).json()) as { items: { path: string }[] };
    expect(list.items.map((i) => i.path)).toContain(path);
  });
});
