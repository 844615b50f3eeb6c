import type Router from '@koa/router';
import type { DeskAnswer, DeskQueue, DeskReport } from '@media-site/contracts/admin-content';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  acknowledge,
  appeal,
  deadlinesOf,
  decide,
  openReports,
  queueOrder,
  REFERENCE_PATTERN,
  reportedItem,
  resolve,
  slaOf,
  type ReportedItem,
  type ReportRow,
} from '@media-site/db/moderation';
import { APPEAL_DECISIONS, DETAILS_MAX, EMAIL_MAX, NOTE_MAX, OUTCOMES } from '@media-site/contracts/report-vocabulary';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { freeSetThumbnail } from '../freephotos/service';
import { parseBody } from '../shared/parse';
import { parseParam } from '../shared/params';
import { photoSetThumbnail, videoThumbnail, vodThumbnail } from '../shared/media-urls';
import { requireAdmin, signedInAdmin } from './session';

// The console's report desk (moderators and owners): the queue in deadline order with
// where each report stands against its promises, the reported item's preview, and acknowledge,
// resolve, appeal and decide through db/src/moderation/handling.ts, the CLI's `reports ...` service.
// Taking the item down is POST /api/admin/takedowns with `report` (changes.ts).

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

/** The item's public page and picture: the same URLs the site itself uses (a taken-down item's picture answers 410). */
function preview(item: ReportedItem) {
  const page = { photoset: 'photos', freephotoset: 'freephotos', video: 'video', vod: 'vod' }[item.type];
  const thumbnail = item.takenDown
    ? null
    : item.type === 'photoset'
      ? photoSetThumbnail(item.path)
      : item.type === 'video'
        ? videoThumbnail(item.path)
        : item.type === 'vod'
          ? vodThumbnail(item.path)
          : freeSetThumbnail(item.path, item.firstFile);
  return { type: item.type, path: item.path, title: item.title, takenDown: item.takenDown, page: `/${page}/${item.path}`, thumbnail };
}

async function deskRow(deps: AccountDeps, r: ReportRow, at: number): Promise<DeskReport> {
  const holidays = deps.settings.reportHolidays;
  const item = await reportedItem(deps.knex, r.content_url);
  return {
    reference: r.reference,
    content_url: r.content_url,
    reason: r.reason,
    details: r.details,
    created_at: r.created_at,
    acknowledged_at: r.acknowledged_at,
    acknowledged_by: r.acknowledged_by,
    resolved_at: r.resolved_at,
    resolved_by: r.resolved_by,
    outcome: r.outcome,
    resolution_note: r.resolution_note,
    appealed_at: r.appealed_at,
    appeal_text: r.appeal_text,
    appeal_decided_at: r.appeal_decided_at,
    appeal_decision: r.appeal_decision,
    deadlines: deadlinesOf(r, holidays),
    sla: slaOf(r, at, holidays),
    item: item ? preview(item) : null,
  };
}

export type DeskRow = Awaited<ReturnType<typeof deskRow>>;

const text = (max: number) => z.string().max(max, `at most ${max} characters`);
export const resolveBody = z.strictObject({ outcome: z.enum(OUTCOMES), note: text(NOTE_MAX) });
export const appealBody = z.strictObject({ text: text(DETAILS_MAX), email: text(EMAIL_MAX).optional() });
export const decideBody = z.strictObject({ decision: z.enum(APPEAL_DECISIONS), note: text(NOTE_MAX) });

/** A report's reference in the path. */
export const reportReference = z.string().regex(REFERENCE_PATTERN, 'not a report reference (R- and 10 letters or digits)');

const referenceParam = (ctx: Context): string => parseParam(reportReference, ctx.params.reference);

/** GET /api/admin/reports and POST /api/admin/reports/:reference/ack|resolve|appeal|decide. */
export function reportDeskRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  const mod = [origin, requireAdmin(deps, 'reports')] as const;
  const handler = (ctx: Context) => {
    const admin = signedInAdmin(ctx);
    return { by: admin.name, now: deps.now(), audit: { actor: admin.name, address: ctx.ip } };
  };
  const answer = async (ctx: Context, r: ReportRow) => {
    ctx.body = { report: await deskRow(deps, r, deps.now()) } satisfies DeskAnswer;
  };
  const site = deps.settings.site;
  router
    .get('/admin/reports', ...mod, async (ctx) => {
      const at = deps.now();
      const queue = queueOrder(await openReports(deps.knex), at, deps.settings.reportHolidays);
      ctx.body = { reports: await Promise.all(queue.map((r) => deskRow(deps, r, at))) } satisfies DeskQueue;
    })
    .post('/admin/reports/:reference/ack', ...mod, readBody(), async (ctx) => {
      await answer(ctx, await acknowledge(deps.knex, referenceParam(ctx), handler(ctx)));
    })
    .post('/admin/reports/:reference/resolve', ...mod, readBody(), async (ctx) => {
      const reference = referenceParam(ctx);
      const body = parseBody(resolveBody, ctx);
      await answer(ctx, await resolve(deps.knex, reference, { ...handler(ctx), ...body, site }));
    })
    .post('/admin/reports/:reference/appeal', ...mod, readBody(), async (ctx) => {
      const reference = referenceParam(ctx);
      const body = parseBody(appealBody, ctx);
      const { now, audit } = handler(ctx);
      const holidays = deps.settings.reportHolidays;
      await answer(ctx, await appeal(deps.knex, reference, { text: body.text, email: body.email, site, holidays, now, audit }));
    })
    .post('/admin/reports/:reference/decide', ...mod, readBody(), async (ctx) => {
      const reference = referenceParam(ctx);
      const body = parseBody(decideBody, ctx);
      await answer(ctx, await decide(deps.knex, reference, { ...handler(ctx), ...body, site }));
    });
}
