import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInCookie } from '../src/sign-in';
import { startStack, type Stack } from '../src/stack';

// "Sign out everywhere" reaches what a hijacked session minted within 10 s, on the site as
// `npm start` runs it (default intervals, through the front door): the media service learns the
// member's valid-from time from its revocation poll and checks it in memory on every request.
const BOUND_MS = 10_000;
const EDGE_SECRET = 'revocation-bound-edge-secret-0123456789';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ env: { EDGE_URL_SECRET: EDGE_SECRET } });
});
afterAll(async () => {
  await stack?.stop();
});

const mediaCookie = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith('media_token='))
    ?.split(';')[0] ?? '';

describe('after sign out everywhere', () => {
  it(`refuses the hijacked session's download link, edge URL and media cookie within ${BOUND_MS / 1000} s`, async () => {
    const stolen = await signInCookie(stack.url);
    const owner = await signInCookie(stack.url);
    const api = (path: string, cookie: string) => fetch(`${stack.url}${path}`, { headers: { Cookie: cookie } });
    const first = ((await (await api('/api/videos/1', stolen)).json()) as { path: string }[])[0]?.path ?? '';
    const { download } = (await (await api(`/api/videos/prename/${encodeURIComponent(first)}`, stolen)).json()) as { download: string };
    const file = decodeURIComponent(download);
    const minted = (await (await api(`/api/download-link?path=${encodeURIComponent(file)}`, stolen)).json()) as {
      url: string;
      edgeUrl: string;
    };
    const media = mediaCookie(await api('/api/me', stolen));
    expect(media).not.toBe('');
    const answers = async () =>
      Promise.all(
        [
          fetch(`${stack.url}${minted.url}`, { headers: { Range: 'bytes=0-0' } }),
          fetch(`${stack.url}${minted.edgeUrl}`, { headers: { Range: 'bytes=0-0' } }),
          fetch(`${stack.url}${file}`, { headers: { Range: 'bytes=0-0', Cookie: media } }),
        ].map(async (pending) => {
          const res = await pending;
          await res.arrayBuffer();
          return res.status;
        }),
      );
    expect(await answers()).toEqual([206, 206, 206]);
    const etag = (await fetch(`${stack.url}${file}`, { method: 'HEAD', headers: { Cookie: media } })).headers.get('etag') ?? '';
    expect(etag).not.toBe('');

    const signOut = await fetch(`${stack.url}/api/account/sign-out-everywhere`, {
      method: 'POST',
      headers: { Cookie: owner, Origin: stack.url },
    });
    expect(signOut.status).toBe(204);
    const signedOut = Date.now();
    await expect.poll(answers, { timeout: BOUND_MS, interval: 100 }).toEqual([403, 403, 403]);
    console.log(`sign out everywhere -> minted access refused after ${Date.now() - signedOut} ms`);
    // A browser revalidating its copy is refused too, never told it is still good.
    expect((await fetch(`${stack.url}${file}`, { headers: { Cookie: media, 'If-None-Match': etag } })).status).toBe(403);
    // The owner signs in again: the new session's cookie works at once.
    const again = mediaCookie(await api('/api/me', await signInCookie(stack.url)));
    expect((await fetch(`${stack.url}${file}`, { headers: { Range: 'bytes=0-0', Cookie: again } })).status).toBe(206);
  });
});
