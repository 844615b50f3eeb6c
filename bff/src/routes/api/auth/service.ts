import { mediaPathOf, signDownloadUrl } from '@media-site/contracts/token';
import { signEdgeUrl } from '@media-site/contracts/edge-url';
import { parseRenditionDownloadUrl } from '@media-site/contracts/download-name';
import type { PlayableType } from '@media-site/contracts/playback-layout';
import { parseManifest } from '@media-site/db/encode';
import { AppError, ForbiddenError, BadRequestError, NotFoundError, UnauthenticatedError } from '../../../errors';
import { createSession, decoyHash, deleteSession, verifyPassword } from '@media-site/db/members';
import type { AccountDeps } from '../../../account/deps';
import { accessWithdrawn, entitlementsOf, hasActiveMembership } from '../../../account/entitlements';
import { memberByUsername, mintSeconds, shownVodPaths, type MemberRow } from '../../../account/repository';
import { downloadChoices } from '../playback/downloads';
import { encodeState, playableItem } from '../playback/repository';
import { createLoginChallenge, spendLoginProof, type ProofCheck } from '../../../security/altcha';
import { enforceRateLimit } from '../../../security/rate-limit';
import { chargeSignInAttempt, type AttemptOutcome, type SignInClient } from './limits';
import { linkedItemState, type LinkedType } from './repository';
import { countActivity } from '../shared/count-stat';
import type { LoginBody } from './schema';
import type { DownloadLink, Member } from '@media-site/contracts/member-api';

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Username and password against the stored scrypt hash; the same work whether the name exists or
 * not. The hash waits in the bounded queue (db/src/members/password.ts) under the client's address:
 * a full queue answers 503 at once.
 */
export async function checkCredentials(deps: AccountDeps, input: LoginBody, address?: string): Promise<MemberRow | undefined> {
  const member = await memberByUsername(deps.knex, input.username);
  const ok = await verifyPassword(input.password, member?.password_hash ?? (await decoyHash()), { owner: address });
  return member && ok ? member : undefined;
}

const PROOF_REFUSED: Record<Exclude<ProofCheck, 'ok'> | 'missing', string> = {
  missing: 'Too many sign-in attempts for this account from new devices. Please confirm you are a person to continue.',
  invalid: 'the confirmation did not check out; please confirm again',
  expired: 'the confirmation expired; please confirm again',
  replayed: 'this confirmation was already used; please confirm again',
};

/**
 * Past a budget: a fresh solved challenge, or 403 challenge_required (the SPA then shows the widget).
 * `missing`: what to say when none came (the sign-in's sentence unless told).
 */
export async function requireProof(deps: AccountDeps, payload: string | undefined, missing = PROOF_REFUSED.missing): Promise<void> {
  const check = payload === undefined ? 'missing' : await spendLoginProof(deps.settings.signinKeys, deps.limiter, payload, deps.now());
  if (check !== 'ok') throw new AppError('challenge_required', check === 'missing' ? missing : PROOF_REFUSED[check]);
}

/** `GET /api/login-challenge`: a proof-of-work challenge for the widget (limited per address, like sign-in). */
export async function loginChallenge(deps: AccountDeps, address: string) {
  await enforceRateLimit(deps.limiter, `login:challenge:${address}`, deps.settings.loginPerMinute);
  return createLoginChallenge(deps.settings.signinKeys, deps.now());
}

export async function signIn(deps: AccountDeps, input: LoginBody, client: SignInClient): Promise<{ member: MemberRow; session: string }> {
  const attempt = await chargeSignInAttempt(deps, input.username, client);
  // Only a wrong password keeps its count; refusals before the check and successes give it back.
  let outcome: AttemptOutcome = 'unchecked';
  try {
    if (attempt.needsProof) await requireProof(deps, input.altcha);
    const member = await checkCredentials(deps, input, client.address);
    outcome = member ? 'succeeded' : 'failed';
    if (!member) throw new UnauthenticatedError('wrong username or password');
    if (member.disabled_at !== null) throw new ForbiddenError('this account has been disabled; contact support');
    const session = await createSession(deps.knex, member.id, deps.now(), deps.settings.sessionTtlHours * 3_600_000);
    return { member, session };
  } finally {
    await attempt.settle(outcome);
  }
}

export const signOut = (deps: AccountDeps, session: string | undefined) => deleteSession(deps.knex, session);

export async function memberView(deps: AccountDeps, member: MemberRow): Promise<Member> {
  const e = await entitlementsOf(deps.knex, member);
  const now = deps.now();
  return {
    username: member.username,
    membership: { active: hasActiveMembership(e, now), paidUntil: e.membershipUntil === null ? null : isoDate(e.membershipUntil) },
    // What the pages mark "Owned": only VODs the catalog shows (a folder is a title; a taken-down or
    // re-scheduled one is named nowhere). The media token keeps every bought path, as access needs.
    vods: await shownVodPaths(deps.knex, e.vodPaths),
    mediaTokenSeconds: deps.settings.mediaTokenTtlSeconds,
  };
}

/** Whether the released item's downloads list (/api/playback) holds `mediaPath`. */
async function hasDownload(deps: AccountDeps, type: PlayableType, folder: string, mediaPath: string): Promise<boolean> {
  const [item, job] = await Promise.all([playableItem(deps.knex, type, folder), encodeState(deps.knex, type, folder)]);
  if (!item) return false;
  return downloadChoices(type, item, parseManifest(job?.manifest)).some((choice) => mediaPathOf(choice.path) === mediaPath);
}

/** The families whose files need a download link, and the item kind each one's folder is. */
const LINKED_TYPE: ReadonlyMap<string, LinkedType> = new Map([
  ['photos', 'photoset'],
  ['video', 'video'],
  ['vod', 'vod'],
]);

/** A link minted is a download in the console's Stats, once per member, item and day (a set's photos, a retry or a second size add nothing). */
const STAT_TYPE = { photoset: 'photo', video: 'video', vod: 'vod' } as const;

/**
 * A signed URL for one file the member may fetch, plain enough for wget -c, curl -C - or aria2.
 * Membership files: valid DOWNLOAD_LINK_TTL_HOURS, but never past the paid-through time.
 */
export async function downloadLink(deps: AccountDeps, member: MemberRow, sitePath: string): Promise<DownloadLink> {
  let mediaPath: string;
  try {
    mediaPath = mediaPathOf(sitePath);
  } catch {
    throw new BadRequestError('path must be a /members/ file path');
  }
  const [asked, folder, file] = mediaPath.split('/');
  // A rendition's download (`videorenditions/{path}/{base}_{label}.mp4`) asks what its original asks.
  const rendition = asked === 'videorenditions' || asked === 'vodrenditions' ? parseRenditionDownloadUrl(mediaPath) : undefined;
  if (rendition === null)
    throw new BadRequestError('path: a rendition is downloaded as {name}_{label}.mp4 (the downloads list of /api/playback gives it)');
  const family = rendition ? rendition.type : asked!;
  const type = LINKED_TYPE.get(family);
  if (!type) throw new BadRequestError('only photos, video and vod files need a download link');
  if (!folder || !file) throw new BadRequestError('path must name a file: /members/{family}/{folder}/{file}');
  if (accessWithdrawn(member)) throw new ForbiddenError('media access has been withdrawn for this account');
  const now = deps.now();
  // Only a released item's files are signed. A folder scheduled for later, taken down or never there
  // is the same 404 after the same statements, so no guess at an unreleased title is confirmed;
  // only the buyer of a taken-down VOD, who saw it and whose account lists it as removed, is told so.
  const [item, e] = await Promise.all([linkedItemState(deps.knex, type, folder, now), entitlementsOf(deps.knex, member)]);
  const state = item?.state;
  if (!item || state !== 'released') {
    if (state === 'taken down' && type === 'vod' && e.vodPaths.includes(folder)) throw new NotFoundError('this item has been removed');
    throw new NotFoundError('no such item');
  }
  let expiresAt = now + deps.settings.downloadLinkTtlHours * 3_600_000;
  if (type === 'vod') {
    if (!e.vodPaths.includes(folder)) throw new ForbiddenError('this VOD has not been purchased');
  } else {
    if (!hasActiveMembership(e, now) || e.membershipUntil === null) throw new ForbiddenError('an active membership is required');
    expiresAt = Math.min(expiresAt, e.membershipUntil);
  }
  // The media service sends a rendition under whatever name the link names: only the names the
  // item's downloads list gives (its base name and a size its encode made) are signed.
  if (rendition && !(await hasDownload(deps, rendition.type, rendition.path, mediaPath)))
    throw new NotFoundError(
      `this ${rendition.type === 'vod' ? 'VOD' : 'video'} has no download ${rendition.name}; /api/playback/${rendition.type}/${rendition.path} lists its downloads`,
    );
  await countActivity(deps, { type: STAT_TYPE[type], id: item.id }, 'downloads', { memberId: member.id });
  // The mint time the media service checks against the member's valid-from (sign out everywhere).
  const issuedAt = mintSeconds(member, now);
  const link = {
    url: signDownloadUrl(deps.settings.mediaKeys, {
      path: mediaPath,
      memberId: member.id,
      expiresAt: Math.floor(expiresAt / 1000),
      issuedAt,
    }),
    expiresAt: new Date(expiresAt).toISOString(),
  };
  const edge = deps.settings.edge;
  if (!edge) return link;
  // The same file through a CDN: short-lived, since a CDN's cached copy answers any unexpired token
  // without asking the origin (where the member's revocation and valid-from are checked).
  const edgeExpiresAt = Math.min(expiresAt, now + edge.ttlSeconds * 1000);
  return {
    ...link,
    edgeUrl:
      edge.baseUrl +
      signEdgeUrl(edge.secret, { path: mediaPath, expiresAt: Math.floor(edgeExpiresAt / 1000), memberId: member.id, issuedAt }),
    edgeExpiresAt: new Date(edgeExpiresAt).toISOString(),
  };
}
