import { parseKeyRing } from '@media-site/contracts/token';
import { startTempMedia, type TempMedia } from '@media-site/media-service/testing';

export { put, raw, type RawResponse } from '@media-site/media-service/testing';

export const TEST_KEYS = 'it:integration-test-secret-key';
export const keys = parseKeyRing(TEST_KEYS);

export type MediaFixture = TempMedia;

/** A temp MEDIA_ROOT and a media service in this process, on a port from the OS. */
export function startMediaFixture(env: Record<string, string> = {}): Promise<MediaFixture> {
  return startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS, ...env });
}
