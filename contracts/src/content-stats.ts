import { z } from 'zod';
import { ACTIVITY_EVENTS, STATS_PAGE_MAX, STATS_SORTS, STATS_TYPES, STATS_WINDOWS } from './stats-vocabulary';

/**
 * "What sells": per item and per model, by UTC day, the console's Stats screen (GET
 * /api/admin/stats) and what members' players report to it (POST /api/activity/{type}/{folder}).
 * Counted into daily aggregates (db/src/stats/daily.ts), never a per-member trail: a member's
 * play, finish or download counts once per item and day. The console types its calls from these
 * answers; the words and bounds without zod are in stats-vocabulary.ts.
 */

export {
  ACTIVITY_EVENTS,
  type ActivityEvent,
  COMPLETE_SHARE,
  ACTIVITY_BODY_LIMIT,
  STATS_TYPES,
  type StatsType,
  STATS_SORTS,
  type StatsSort,
  STATS_SORT_LABELS,
  MONEY_SORTS,
  STATS_WINDOWS,
  STATS_DEFAULT_DAYS,
  STATS_PAGE_SIZE,
  STATS_PAGE_MAX,
} from './stats-vocabulary';

export const activityBody = z.strictObject({
  event: z.enum(ACTIVITY_EVENTS, { error: 'event must be play or complete' }),
});
export type ActivityBody = z.infer<typeof activityBody>;

/** The screen's question. Strict: an unknown parameter is a 400 naming it. */
export const statsQuery = z
  .strictObject({
    days: z.enum(['7', '30', '90'], { error: `days must be one of ${STATS_WINDOWS.join(', ')}` }).optional(),
    by: z.enum(['item', 'model'], { error: 'by must be item or model' }).optional(),
    type: z.enum(STATS_TYPES, { error: `type must be one of ${STATS_TYPES.join(', ')}` }).optional(),
    /** One model's items (her page in the console). */
    model: z.string('model must be a name').min(1, 'model must not be empty').max(100, 'model must be at most 100 characters').optional(),
    /** One item (with `type`): the per-day figures are its own. */
    path: z
      .string('path must be a folder name')
      .regex(/^[\w.-]{1,100}$/, "path must be 1 to 100 characters of letters, digits, '.', '_' or '-'")
      .optional(),
    sort: z.enum(STATS_SORTS, { error: `sort must be one of ${STATS_SORTS.join(', ')}` }).optional(),
    page: z
      .string('page must be a whole number')
      .regex(/^[1-9]\d{0,2}$/, `page must be a whole number from 1 to ${STATS_PAGE_MAX}`)
      .refine((p) => Number(p) <= STATS_PAGE_MAX, `page must be a whole number from 1 to ${STATS_PAGE_MAX}`)
      .optional(),
  })
  .refine((q) => q.path === undefined || q.type !== undefined, { message: 'path needs type (photo, video or vod)' })
  .refine((q) => q.by !== 'model' || (q.model === undefined && q.path === undefined), {
    message: 'by=model lists every model: drop model and path, or ask by=item',
  });
export type StatsQuery = z.infer<typeof statsQuery>;

const count = z.number().int().nonnegative();
/** One row's (or one day's, or the window's) counts; `sales` and `revenue` only for a role that sees payments. */
export const statCounts = z.strictObject({
  plays: count,
  completions: count,
  downloads: count,
  saves: count,
  sales: count.optional(),
  /** Cents of the site's currency. */
  revenue: count.optional(),
});
export type StatCounts = z.infer<typeof statCounts>;

export const statsRow = statCounts.extend({
  type: z.enum(['photo', 'video', 'vod', 'model']),
  /** The item's folder, or the model's name. */
  path: z.string(),
  title: z.string(),
  /** The item's model; null for a model row or an item without one. */
  model: z.string().nullable(),
  /** A model row: members who follow her (saved her) in the window. */
  follows: count.optional(),
});
export type StatsRow = z.infer<typeof statsRow>;

export const statsAnswer = z.strictObject({
  /** The window, first and last UTC day (YYYY-MM-DD), both included. */
  from: z.string(),
  to: z.string(),
  days: z.number().int(),
  by: z.enum(['item', 'model']),
  sort: z.enum(STATS_SORTS),
  page: z.number().int(),
  more: z.boolean(),
  /** Whether sales and revenue are shown (the payments ability: owner, support). */
  money: z.boolean(),
  /** ISO 4217 numeric code of the revenue (the site's configured currency). */
  currencyCode: z.number().int(),
  /** Over the window, for what the filters chose (type, model, item). */
  totals: statCounts,
  /** Every day of the window, oldest first, zeros included. */
  perDay: z.array(statCounts.extend({ day: z.string() })),
  rows: z.array(statsRow),
});
export type StatsAnswer = z.infer<typeof statsAnswer>;
