import type { Knex } from 'knex';
import { searchText } from '@media-site/db';
import type { Manifest } from '@media-site/db/encode';
import { addMember, hashPassword } from '@media-site/db/members';
import type { Backend } from '@media-site/db/testing';
import { cookieHeader, setCookies } from './cookies';
import { ORIGIN, startReportKit, type ReportKit } from './report-kit';
import { insertSubscription } from '@media-site/db/payments';

export const PASSWORD = 'correct horse';

export const MANIFEST: Manifest = {
  version: 1,
  duration: 120.5,
  source: { sig: '1-1', width: 1920, height: 1080, hasAudio: true },
  renditions: [
    {
      label: '1080p',
      file: '1080p.mp4',
      width: 1920,
      height: 1080,
      bitrate: 4_800_000,
      bytes: 72_000_000,
      mime: 'video/mp4; codecs="avc1.640028, mp4a.40.2"',
    },
    {
      label: '720p',
      file: '720p.mp4',
      width: 1280,
      height: 720,
      bitrate: 2_600_000,
      bytes: 39_000_000,
      mime: 'video/mp4; codecs="avc1.64001f, mp4a.40.2"',
    },
  ],
  poster: { file: 'poster.jpg', width: 1280, height: 720 },
  sprite: { file: 'sprite.jpg', width: 1600, height: 1170, frames: 121, interval: 1 },
  thumbnails: { file: 'thumbs.vtt' },
  trailer: { file: 'trailer.mp4', width: 640, height: 360, duration: 6, bytes: 300_000 },
  encodedAt: 1,
};

async function item(knex: Knex, table: 'videos' | 'vods', path: string): Promise<number> {
  const row = {
    path,
    updatename: `Title ${path}`,
    modelname: 'Model A1',
    datetoupload: '2025-05-01',
    search_text: searchText(`Title ${path}`, 'Model A1'),
    prename: `${path}_HD`,
  };
  const [id] = await knex(table).insert(table === 'vods' ? { ...row, format: 0, price: '9.99' } : row);
  return Number(id);
}

async function job(knex: Knex, type: 'video' | 'vod', path: string, status: string, extra: Record<string, unknown> = {}): Promise<void> {
  await knex('media_jobs').insert({ content_type: type, path, source_sig: '1-1', status, created_at: 1, updated_at: 1, ...extra });
}

/**
 * Videos in every encoding state (ready, preparing at 42 %, failed, never queued), two VODs, and
 * members: member_a (membership), buyer_b (bought show-ready only), lapsed_c (nothing).
 */
export async function seedPlayback(knex: Knex): Promise<void> {
  const now = Date.now();
  for (const path of ['clip-ready', 'clip-preparing', 'clip-failed', 'clip-none']) await item(knex, 'videos', path);
  const show = await item(knex, 'vods', 'show-ready');
  await item(knex, 'vods', 'show-other');
  await job(knex, 'video', 'clip-ready', 'done', { manifest: JSON.stringify(MANIFEST), progress: 1000 });
  await job(knex, 'video', 'clip-preparing', 'running', { progress: 420 });
  await job(knex, 'video', 'clip-failed', 'failed', { error: 'ffprobe could not read the file' });
  await job(knex, 'vod', 'show-ready', 'done', { manifest: JSON.stringify(MANIFEST) });
  await job(knex, 'vod', 'show-other', 'done', { manifest: JSON.stringify(MANIFEST) });
  const passwordHash = await hashPassword(PASSWORD);
  await addMember(knex, { username: 'member_a', passwordHash, email: 'a@example.com', days: 30, now });
  const buyer = await addMember(knex, { username: 'buyer_b', passwordHash, email: 'b@example.com', days: 0, now });
  await insertSubscription(knex, { memberId: buyer, kind: 'vod', vodId: show, providerSubscriptionId: null, paidUntil: null, now });
  await addMember(knex, { username: 'lapsed_c', passwordHash, email: 'c@example.com', days: 0, now });
}

/** Signs in; returns the Cookie header value. */
export async function signInAs(kit: ReportKit, username: string): Promise<string> {
  const res = await kit.request.post('/api/login').set('Origin', ORIGIN).send({ username, password: PASSWORD });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return cookieHeader(setCookies(res));
}

/** The report kit over a playback seed, with the Cookie headers of its three members signed in. */
export interface PlaybackKit extends ReportKit {
  /** member_a: a membership. */
  member: string;
  /** buyer_b: bought show-ready only. */
  buyer: string;
  /** lapsed_c: no membership, nothing bought. */
  lapsed: string;
}

export async function startPlaybackKit(backend: Backend, seed: (knex: Knex) => Promise<void> = seedPlayback): Promise<PlaybackKit> {
  const kit = await startReportKit(backend, seed);
  return {
    ...kit,
    member: await signInAs(kit, 'member_a'),
    buyer: await signInAs(kit, 'buyer_b'),
    lapsed: await signInAs(kit, 'lapsed_c'),
  };
}
