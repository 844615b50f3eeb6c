import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { BULK_ACTIONS, BULK_MAX, type BulkAction, type ContentBulkResult, type ContentItem } from '@media-site/contracts/admin-content';
import { isoTime } from '@media-site/contracts/iso-time';
import { roleMay } from '@media-site/db/admin';
import {
  contentItem,
  contentRefOf,
  parseReleaseTime,
  requeueEncode,
  restore,
  schedule,
  takeDown,
  type ContentRef,
} from '@media-site/db/content';
import { BadRequestError, ForbiddenError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { parseBody } from '../shared/parse';
import { NOTE_MAX } from '@media-site/contracts/report-vocabulary';
import { requireAdmin, signedInAdmin } from './session';

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;
type Outcome = ContentBulkResult['items'][number];

const path = z.string().trim().min(1, 'every path must be the site path or URL of an item').max(500);

export const bulkBody = z.strictObject({
  action: z.enum(BULK_ACTIONS),
  paths: z.array(path).min(1, 'choose at least one item').max(BULK_MAX, `at most ${BULK_MAX} items in one change`),
  /** Takedown and restore: why (the audit log keeps it). */
  reason: z.string().trim().min(1).max(NOTE_MAX).optional(),
  /** Schedule: an ISO 8601 time with its zone. */
  at: z.string().max(40).optional(),
  /** true: say what would change, change nothing. */
  preview: z.boolean().default(false),
});
type BulkBody = z.infer<typeof bulkBody>;

/** 100 paths of at most 500 characters, with the JSON around them. */
const BULK_BODY_LIMIT = 64 * 1024;

/** What the action would do to this item now: the change, or why it is already so or cannot be. */
function plan(action: BulkAction, item: ContentItem, publishAt: number | null): Omit<Outcome, 'path' | 'title'> {
  if (item.type === 'model') return { outcome: 'failed', detail: 'a model is not changed in bulk' };
  switch (action) {
    case 'takedown':
      return item.takenDown ? { outcome: 'unchanged', detail: 'already taken down' } : { outcome: 'changed', detail: 'taken down' };
    case 'restore':
      return item.takenDown ? { outcome: 'changed', detail: 'restored' } : { outcome: 'unchanged', detail: 'not taken down' };
    case 'schedule':
      return item.publishAt === publishAt
        ? { outcome: 'unchanged', detail: 'already scheduled for that time' }
        : { outcome: 'changed', detail: `released at ${isoTime(publishAt, 'now', 's')}` };
    case 'unschedule':
      return item.publishAt === null
        ? { outcome: 'unchanged', detail: 'already published' }
        : { outcome: 'changed', detail: 'published now' };
    case 'reencode':
      if (item.type !== 'video' && item.type !== 'vod') return { outcome: 'failed', detail: 'only videos and VODs are encoded' };
      if (item.encode === null) return { outcome: 'failed', detail: 'never queued for encoding: ingest it' };
      if (item.encode.status === 'queued' || item.encode.status === 'running')
        return { outcome: 'unchanged', detail: 'already queued or encoding' };
      return { outcome: 'changed', detail: 'queued for encoding again' };
  }
}

async function apply(deps: AccountDeps, ctx: Context, body: BulkBody, ref: ContentRef, publishAt: number | null): Promise<void> {
  const actor = signedInAdmin(ctx).name;
  const audit = { actor, address: ctx.ip, now: deps.now() };
  const reason = body.reason!;
  if (body.action === 'takedown') await takeDown(deps.knex, { ref, actor, reason, now: audit.now, audit });
  else if (body.action === 'restore') await restore(deps.knex, { ref, actor, reason, now: audit.now, audit });
  else if (body.action === 'schedule') await schedule(deps.knex, ref, publishAt, audit);
  else if (body.action === 'unschedule') await schedule(deps.knex, ref, null, audit);
  else await requeueEncode(deps.knex, ref, audit);
}

/**
 * One change for many items (the Content screen's checkboxes). Each item goes through the same db
 * service as its own button, in its own transaction with its own audit row, so one that fails
 * (gone meanwhile, not encodable) leaves the others changed and says why. A preview reads the same
 * plan and changes nothing. Items in the order given, each path once.
 */
export async function contentBulk(deps: AccountDeps, ctx: Context, body: BulkBody): Promise<ContentBulkResult> {
  if ((body.action === 'takedown' || body.action === 'restore') && !body.reason)
    throw new BadRequestError('reason: say why (the audit log keeps it)');
  if (body.action === 'schedule' && !body.at) throw new BadRequestError('at: give the release time (ISO 8601 with its zone)');
  const publishAt = body.action === 'schedule' ? parseReleaseTime(body.at!) : null;
  const items: Outcome[] = [];
  for (const text of [...new Set(body.paths)]) {
    const ref = contentRefOf(text);
    if (!ref) {
      items.push({ path: text, title: null, outcome: 'failed', detail: 'not a photo set, free photo set, video or VOD path' });
      continue;
    }
    const item = await contentItem(deps.knex, ref, deps.now()).catch(() => undefined);
    if (!item) {
      items.push({ path: text, title: null, outcome: 'failed', detail: 'no such item' });
      continue;
    }
    const planned = plan(body.action, item, publishAt);
    if (planned.outcome === 'changed' && !body.preview) {
      try {
        await apply(deps, ctx, body, ref, publishAt);
      } catch (err) {
        items.push({ path: text, title: item.title, outcome: 'failed', detail: (err as Error).message.slice(0, 200) });
        continue;
      }
    }
    items.push({ path: text, title: item.title, ...planned });
  }
  return { action: body.action, preview: body.preview, items, changed: items.filter((i) => i.outcome === 'changed').length };
}

/** POST /api/admin/content/bulk: content changes for many items (takedown and restore: the takedowns right too). */
export function adminContentBulkRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  router.post('/admin/content/bulk', origin, requireAdmin(deps, 'content'), readBody(BULK_BODY_LIMIT), async (ctx) => {
    const body = parseBody(bulkBody, ctx);
    const admin = signedInAdmin(ctx);
    if ((body.action === 'takedown' || body.action === 'restore') && !roleMay(admin.role, 'takedowns'))
      throw new ForbiddenError(`the ${admin.role} role may not take down or restore content`);
    ctx.body = await contentBulk(deps, ctx, body);
  });
}
