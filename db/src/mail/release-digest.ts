import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { unreleasedIds } from '../content/schedule';
import { isUniqueViolation } from '../knex';
import type { ContentType } from '../content/takedowns';
import type { MailSite } from './compose';
import { enqueueMail } from './outbox';
import { releaseDigestMail, type ReleasedItem } from './templates/releases';

// "New from your models" by e-mail (migration 029). A member opts in on /account; when items of
// the models they follow (saved_items of type 'model') are released, one mail names them. Run by the
// bff that sends mail, whenever the catalog changes (an ingest, a release falling due, a restore)
// and once a minute besides; every run is idempotent, so two bffs running it at once are harmless.

/** Only items released this recently are mailed (a digest that was down for longer skips the rest). */
export const RELEASE_WINDOW_MS = 3 * 86_400_000;
/** Items looked at per type and run: a bulk ingest mails its newest this many. */
const ITEMS_PER_TYPE = 100;
/**
 * A member's next release mail waits this long after their last one: a batch ingested folder by
 * folder (a catalog change each) is one mail, not one per folder. What came out meanwhile waits for it.
 */
export const RELEASE_MAIL_GAP_MS = 15 * 60_000;
/** Members mailed per run; the next run (at most a minute later) goes on. */
const MEMBERS_PER_RUN = 500;
/** Followers read per item and run. */
const FOLLOWERS_PER_ITEM = 2000;
/** What a digest remembers is dropped after this; the unsubscribe links of its mails live longer. */
const SENT_KEEP_MS = 30 * 86_400_000;
export const UNSUBSCRIBE_LINK_KEEP_MS = 365 * 86_400_000;

const TYPES = [
  { type: 'photoset', table: 'photosets', kind: 'Photo set', section: 'photos' },
  { type: 'video', table: 'videos', kind: 'Video', section: 'video' },
  { type: 'vod', table: 'vods', kind: 'VOD', section: 'vod' },
] as const satisfies ReadonlyArray<{ type: ContentType; table: string; kind: string; section: string }>;

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

interface Release extends ReleasedItem {
  type: ContentType;
  id: number;
  modelId: number;
  /** The release instant: its publish_at, else the start of its day (datetoupload). */
  at: number;
  /** Compared by day (no release time of its own): an item ingested unscheduled. */
  byDay: boolean;
}

/** Items released in (now - RELEASE_WINDOW_MS, now], by a model, and shown now (not taken down, not scheduled). */
async function recentReleases(knex: Knex, now: number): Promise<Release[]> {
  const since = now - RELEASE_WINDOW_MS;
  const out: Release[] = [];
  for (const { type, table, kind, section } of TYPES) {
    // Two range reads, each along its index (publish_at; datetoupload, id), rather than one OR,
    // which would scan the table.
    const shown = (q: Knex.QueryBuilder, order: string) =>
      q
        .whereNotNull('model_id')
        .whereNotIn('id', knex('takedowns').where('content_type', type).select('content_id'))
        .whereNotIn('id', unreleasedIds(knex, table, now))
        .orderBy(order, 'desc')
        .orderBy('id', 'desc')
        .limit(ITEMS_PER_TYPE)
        .select('id', 'path', 'updatename', 'modelname', 'model_id', 'publish_at', 'datetoupload');
    const scheduled: Array<Record<string, unknown>> = await shown(knex(table).whereBetween('publish_at', [since + 1, now]), 'publish_at');
    const unscheduled: Array<Record<string, unknown>> = await shown(
      knex(table).whereNull('publish_at').where('datetoupload', '>=', dayOf(since)),
      'datetoupload',
    );
    const rows = [...scheduled, ...unscheduled].sort((a, b) => Number(b.id) - Number(a.id)).slice(0, ITEMS_PER_TYPE);
    for (const r of rows) {
      const day = String(r.datetoupload instanceof Date ? r.datetoupload.toISOString() : r.datetoupload).slice(0, 10);
      const byDay = r.publish_at == null;
      out.push({
        type,
        id: Number(r.id),
        modelId: Number(r.model_id),
        kind,
        title: String(r.updatename),
        modelname: String(r.modelname),
        path: `/${section}/${encodeURIComponent(String(r.path))}`,
        at: byDay ? Date.parse(`${day}T00:00:00Z`) : Number(r.publish_at),
        byDay,
      });
    }
  }
  return out;
}

/** Whether `item` came out after the member followed its model and opted in (by day for an item without a release time). */
function newTo(item: Release, since: number): boolean {
  return item.byDay ? dayOf(item.at) >= dayOf(since) : item.at >= since;
}

interface Recipient {
  memberId: number;
  username: string;
  email: string;
  items: Release[];
}

/** For each release, its model's opted-in followers not yet told about it, grouped by member. */
async function recipients(knex: Knex, releases: Release[], now: number): Promise<Recipient[]> {
  const byMember = new Map<number, Recipient>();
  for (const item of releases) {
    const rows: Array<Record<string, unknown>> = await knex('saved_items as s')
      .join('release_mail_subscriptions as r', 'r.member_id', 's.member_id')
      .join('members as m', 'm.id', 's.member_id')
      .where({ 's.content_type': 'model', 's.content_id': item.modelId })
      .whereNull('m.disabled_at')
      // A member whose access was withdrawn (a chargeback, a refund) is not mailed offers.
      .whereNull('m.revoked_at')
      .whereNotExists(
        knex('release_mail_sent as x')
          .whereRaw('x.member_id = s.member_id')
          .where({ 'x.content_type': item.type, 'x.content_id': item.id })
          .select(knex.raw('1')),
      )
      .whereNotExists(
        knex('release_mail_sent as y')
          .whereRaw('y.member_id = s.member_id')
          .where('y.sent_at', '>', now - RELEASE_MAIL_GAP_MS)
          .select(knex.raw('1')),
      )
      .orderBy('s.member_id')
      .limit(FOLLOWERS_PER_ITEM)
      .select('s.member_id', 's.saved_at', 'r.subscribed_at', 'm.username', 'm.email');
    for (const r of rows) {
      const since = Math.max(Number(r.saved_at), Number(r.subscribed_at));
      if (!newTo(item, since)) continue;
      const memberId = Number(r.member_id);
      let recipient = byMember.get(memberId);
      if (!recipient) {
        if (byMember.size >= MEMBERS_PER_RUN) continue;
        recipient = { memberId, username: String(r.username), email: String(r.email), items: [] };
        byMember.set(memberId, recipient);
      }
      recipient.items.push(item);
    }
  }
  return [...byMember.values()];
}

export interface ReleaseMailLinks {
  /** The site path the mail's own link opens (a page with a button), given the token. */
  page: (token: string) => string;
  /** The absolute address List-Unsubscribe names (RFC 8058's POST), given the token. */
  oneClick: (token: string) => string;
}

export const unsubscribeTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * One run: queues at most one mail per member naming every release they were not yet told about,
 * and remembers those items, in one transaction per member (the mail exists if and only if the
 * items are marked sent). Returns how many mails were queued.
 */
export async function queueReleaseDigests(knex: Knex, site: MailSite, links: ReleaseMailLinks, now: number): Promise<number> {
  const releases = await recentReleases(knex, now);
  if (releases.length === 0) return 0;
  let queued = 0;
  for (const recipient of await recipients(knex, releases, now)) {
    const items = [...recipient.items].sort((a, b) => b.at - a.at || b.id - a.id);
    const token = randomBytes(32).toString('base64url');
    const key = `releases:${recipient.memberId}:${createHash('sha256')
      .update(items.map((i) => `${i.type}/${i.id}`).join(','))
      .digest('base64url')
      .slice(0, 32)}`;
    try {
      await knex.transaction(async (trx) => {
        // A second bff running the same digest at once: its insert meets this primary key and rolls back.
        await trx('release_mail_sent').insert(
          items.map((i) => ({ member_id: recipient.memberId, content_type: i.type, content_id: i.id, sent_at: now })),
        );
        await trx('release_mail_links').insert({ token_hash: unsubscribeTokenHash(token), member_id: recipient.memberId, created_at: now });
        const mail = releaseDigestMail(site, { username: recipient.username, items, unsubscribe: `${site.url}${links.page(token)}` });
        await enqueueMail(
          trx,
          { key, to: recipient.email, template: 'release-digest', listUnsubscribe: links.oneClick(token), ...mail },
          now,
        );
      });
      queued += 1;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  return queued;
}

/** Forgets what was mailed long enough ago that its items have left the release window, and old unsubscribe links. */
export async function pruneReleaseMail(knex: Knex, now: number): Promise<void> {
  await knex('release_mail_sent')
    .where('sent_at', '<', now - SENT_KEEP_MS)
    .delete();
  await knex('release_mail_links')
    .where('created_at', '<', now - UNSUBSCRIBE_LINK_KEEP_MS)
    .delete();
}

/** Whether the member gets release mails. */
export async function releaseMailOn(knex: Knex, memberId: number): Promise<boolean> {
  return (await knex('release_mail_subscriptions').where({ member_id: memberId }).first('member_id')) !== undefined;
}

/** Switches the member's release mails on (from `now`: nothing released before is mailed) or off. */
export async function setReleaseMail(knex: Knex, memberId: number, on: boolean, now: number): Promise<void> {
  if (!on) {
    await knex('release_mail_subscriptions').where({ member_id: memberId }).delete();
    return;
  }
  await knex('release_mail_subscriptions').insert({ member_id: memberId, subscribed_at: now }).onConflict('member_id').ignore();
}

/**
 * A mail's unsubscribe link, opened: release mails off for its member. Returns the member's
 * username, or undefined for a link this site never sent (or sent more than a year ago).
 */
export async function unsubscribeByToken(knex: Knex, token: string): Promise<string | undefined> {
  const link = await knex('release_mail_links as l')
    .join('members as m', 'm.id', 'l.member_id')
    .where('l.token_hash', unsubscribeTokenHash(token))
    .first('l.member_id', 'm.username');
  if (!link) return undefined;
  await setReleaseMail(knex, Number(link.member_id), false, 0);
  return String(link.username);
}
