/**
 * Why the video element failed: `gone` (410 or 404: taken down or removed), `denied` (401/403: the
 * session or the media cookie ran out, which a renewal fixes), otherwise `failed` (a server or
 * network error, or a file the browser could not play). One byte is asked for, so the check is small.
 */
export type PlaybackFailure = 'gone' | 'denied' | 'failed';

export async function classifyPlaybackError(src: string, fetchImpl: typeof fetch = fetch): Promise<PlaybackFailure> {
  try {
    const response = await fetchImpl(src, { headers: { Range: 'bytes=0-0' }, credentials: 'same-origin', cache: 'no-store' });
    void response.body?.cancel().catch(() => {});
    if (response.status === 410 || response.status === 404) return 'gone';
    if (response.status === 401 || response.status === 403) return 'denied';
    return 'failed';
  } catch {
    return 'failed';
  }
}
