import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchJson, HttpError, postJson } from './fetchJson';
import { json, stubFetch } from '../../test/render';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("fetchJson's HttpError", () => {
  it("carries the server's code and message, and keeps spec §8's message", async () => {
    stubFetch(() => json({ error: { code: 'rate_limited', message: 'Too many attempts' } }, 429));
    const error = await postJson('/api/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      serverMessage: 'Too many attempts',
      message: 'HTTP error! status: 429',
    });
  });

  it('has neither when the answer is not the error JSON (a proxy page, an empty body)', async () => {
    stubFetch(() => new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    await expect(fetchJson('/api/updates/1')).rejects.toMatchObject({ status: 502, code: undefined, serverMessage: undefined });
    stubFetch(() => json({ error: 'nope' }, 500));
    await expect(fetchJson('/api/updates/1')).rejects.toMatchObject({ status: 500, code: undefined, serverMessage: undefined });
  });
});
