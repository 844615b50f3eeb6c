// Shared by the tests that check a member path both ways it can be delivered (playback,
// rendition-downloads): a fixture streamed by the service and one offloaded to nginx, each with
// its own takedown list, and a member's session cookie.
import { afterAll, beforeAll, describe } from 'vitest';
import { signSessionToken } from '@media-site/contracts/token';
import { TakedownList } from '../access/takedowns';
import { RANGE_DATA, keys, putAll, startFixture } from './helpers';
import type { Fixture } from './helpers';

export const now = () => Math.floor(Date.now() / 1000);
export const member = (over: Partial<Parameters<typeof signSessionToken>[1]> = {}) =>
  signSessionToken(keys, { memberId: 42, expiresAt: now() + 600, membershipActiveUntil: now() + 86_400, vodPaths: ['show-1'], ...over });
export const cookie = (token: string) => ({ Cookie: `media_token=${token}` });

/** What a test body sees; `fx` is set once the suite's beforeAll has run. */
export interface Delivery {
  fx: Fixture;
  takedowns: TakedownList;
  /** True when files are handed to nginx (X-Accel-Redirect) instead of streamed. */
  offload: boolean;
}

/** The renditions both suites deliver: clip-1's 720p, and the 480p of show-1 (which `member()` bought) and of show-2. */
export const RENDITIONS = {
  'videorenditions/clip-1/720p.mp4': RANGE_DATA,
  'vodrenditions/show-1/480p.mp4': RANGE_DATA,
  'vodrenditions/show-2/480p.mp4': RANGE_DATA,
};

/** Runs `body` once streamed by the service and once offloaded to nginx, on a tree of the `files` given (path → contents). */
export function describeDeliveries(
  title: string,
  files: () => Promise<Record<string, Buffer | string>>,
  body: (at: Delivery) => void,
): void {
  describe.each([
    ['streamed by the service', {}],
    ['offloaded to nginx', { MEDIA_OFFLOAD: 'nginx' }],
  ] as const)(`${title}, %s`, (_name, env) => {
    const at = { takedowns: new TakedownList(), offload: 'MEDIA_OFFLOAD' in env } as Delivery;
    beforeAll(async () => {
      at.fx = await startFixture(env, { takedowns: at.takedowns });
      await putAll(at.fx.root, await files());
    });
    afterAll(() => at.fx.stop());
    body(at);
  });
}
