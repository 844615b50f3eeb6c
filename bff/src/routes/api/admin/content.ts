import type Router from '@koa/router';
import type { ContentEdited, ContentPage, ContentReencoded, ContentScheduled } from '@media-site/contracts/admin-content';
import type { Context } from 'koa';
import { TAG_MAX, TAGS_PER_ITEM_MAX } from '@media-site/contracts/search-filters';
import { z } from 'zod';
import {
  CONTENT_KINDS,
  CONTENT_PAGE_MAX,
  CONTENT_PAGE_SIZE_MAX,
  CONTENT_QUERY_MAX,
  CONTENT_STATES,
  contentItem,
  contentRefOf,
  editContent,
  findContent,
  MODEL_MAX,
  parseReleaseTime,
  requeueEncode,
  schedule,
  TITLE_MAX,
  type ContentRef,
} from '@media-site/db/content';
import { BadRequestError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { parseBody, parseQuery } from '../shared/parse';
import { requireAdmin, signedInAdmin } from './session';

// The console's Content screen: every role reads (`content:read`), moderators and owners
// change (`content`). Each change goes through the db service the CLI uses (`catalog edit`,
// `catalog schedule|unschedule`, `catalog reencode`) and is audited in its own transaction; the
// catalog generation it bumps reaches every bff at its next poll. Takedowns and restores are
// changes.ts's routes.

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

const PAGE_SIZE = 25;

export const contentQuery = z.strictObject({
  q: z.string().trim().max(CONTENT_QUERY_MAX).optional(),
  type: z.enum(CONTENT_KINDS as [string, ...string[]]).optional(),
  state: z.enum(CONTENT_STATES as [string, ...string[]]).default('all'),
  page: z.coerce.number().int().min(1).max(CONTENT_PAGE_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(CONTENT_PAGE_SIZE_MAX).default(PAGE_SIZE),
});

const path = z.string().trim().min(1, 'give path, the site path or URL of the item').max(500);

export const editBody = z.strictObject({
  path,
  title: z
    .string()
    .max(TITLE_MAX + 20)
    .optional(),
  model: z
    .string()
    .max(MODEL_MAX + 20)
    .optional(),
  date: z.string().max(20).optional(),
  price: z.string().max(20).optional(),
  // Bounded loosely, so the body limit holds; editContent folds them and applies the real limits.
  tags: z
    .array(z.string().max(TAG_MAX * 4))
    .max(TAGS_PER_ITEM_MAX * 2)
    .optional()
    .describe(`the whole tag list, replacing the old one ([] removes every tag); at most ${TAGS_PER_ITEM_MAX} once folded`),
});

export const scheduleBody = z.strictObject({
  path,
  /** An ISO 8601 time with its zone; null publishes now. */
  at: z.string().max(40).nullable(),
});

export const itemBody = z.strictObject({ path });

function refOf(text: string): ContentRef {
  const ref = contentRefOf(text);
  if (!ref)
    throw new BadRequestError(
      'path: not a photo set, free photo set, video or VOD (use /photos/<path>, /freephotos/<path>, /video/<path> or /vod/<path>)',
    );
  return ref;
}

const auditOf = (ctx: Context, deps: AccountDeps) => ({ actor: signedInAdmin(ctx).name, address: ctx.ip, now: deps.now() });

/** GET /api/admin/content, POST /api/admin/content/edit, /schedule and /reencode. */
export function adminContentRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  const change = [origin, requireAdmin(deps, 'content'), readBody()] as const;
  router
    .get('/admin/content', origin, requireAdmin(deps, 'content:read'), async (ctx) => {
      const query = parseQuery(contentQuery, ctx);
      const found = await findContent(deps.knex, {
        q: query.q,
        type: query.type as Parameters<typeof findContent>[1]['type'],
        state: query.state as Parameters<typeof findContent>[1]['state'],
        page: query.page,
        pageSize: query.pageSize,
        now: deps.now(),
      });
      ctx.body = { ...found, page: query.page, now: deps.now() } satisfies ContentPage;
    })
    .post('/admin/content/edit', ...change, async (ctx) => {
      const { path: target, ...edit } = parseBody(editBody, ctx);
      const ref = refOf(target);
      const { changed, generation } = await editContent(deps.knex, ref, edit, auditOf(ctx, deps));
      ctx.body = { changed, generation, item: await contentItem(deps.knex, ref, deps.now()) } satisfies ContentEdited;
    })
    .post('/admin/content/schedule', ...change, async (ctx) => {
      const { path: target, at } = parseBody(scheduleBody, ctx);
      const ref = refOf(target);
      const publishAt = at === null ? null : parseReleaseTime(at);
      const generation = await schedule(deps.knex, ref, publishAt, auditOf(ctx, deps));
      ctx.body = { generation, item: await contentItem(deps.knex, ref, deps.now()) } satisfies ContentScheduled;
    })
    .post('/admin/content/reencode', ...change, async (ctx) => {
      const ref = refOf(parseBody(itemBody, ctx).path);
      await requeueEncode(deps.knex, ref, auditOf(ctx, deps));
      ctx.body = { item: await contentItem(deps.knex, ref, deps.now()) } satisfies ContentReencoded;
    });
}
