import { z } from 'zod';
import { APPEAL_DECISIONS, OUTCOMES, REPORT_REASONS } from './report-vocabulary';

/**
 * The console's content, report desk, ingest and "coming soon" answers (bff/src/routes/api/admin),
 * shared as admin.ts's are: the bff builds them, the OpenAPI document is written from them, the
 * console imports the types only.
 */

export const CONTENT_ITEM_TYPES = ['photoset', 'freephotoset', 'video', 'vod'] as const;
export const contentItemType = z.enum(CONTENT_ITEM_TYPES);
export type ContentItemType = z.infer<typeof contentItemType>;

/** What the Content screen searches: the item types and models. */
export const CONTENT_KINDS = [...CONTENT_ITEM_TYPES, 'model'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
export const CONTENT_STATES = ['all', 'live', 'scheduled', 'takendown'] as const;
export type ContentState = (typeof CONTENT_STATES)[number];

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

/** An item as the Content screen lists it (db/src/content/edit.ts). */
export const contentItem = z.strictObject({
  type: z.enum(CONTENT_KINDS),
  /** The item's path (for a model: its name). */
  path: z.string(),
  title: z.string(),
  model: z.string().nullable(),
  /** YYYY-MM-DD */
  date: z.string().nullable(),
  /** VODs only: "24.50" */
  price: z.string().nullable(),
  /** Unix ms while scheduled; null once published. */
  publishAt: z.number().nullable(),
  takenDown: z.boolean(),
  /** Videos and VODs: their encode job, null when none was queued yet. */
  encode: z
    .strictObject({
      status: z.enum(JOB_STATUSES),
      attempts: z.number().int(),
      /** 0..1 */
      progress: z.number(),
      error: z.string().nullable(),
      updatedAt: z.number(),
    })
    .nullable(),
  /** Models only: how many photo sets, videos and VODs name them. */
  items: z.number().int().optional(),
  /** Photo sets, videos and VODs: their tags, folded ("black and white"), A–Z. */
  tags: z.array(z.string()).optional(),
});
export type ContentItem = z.infer<typeof contentItem>;

/** GET /api/admin/content: one page of the search; `now` is the server's clock (unix ms). */
export const contentPage = z.strictObject({ items: z.array(contentItem), more: z.boolean(), page: z.number().int(), now: z.number() });
export type ContentPage = z.infer<typeof contentPage>;

const at = z.number();
const atOrNull = z.number().nullable();

/** One report of the desk's queue (GET /api/admin/reports), with its deadlines, where it stands, and the item it names. */
export const deskReport = z.strictObject({
  reference: z.string(),
  content_url: z.string(),
  reason: z.enum(REPORT_REASONS),
  details: z.string(),
  created_at: at,
  acknowledged_at: atOrNull,
  acknowledged_by: z.string().nullable(),
  resolved_at: atOrNull,
  resolved_by: z.string().nullable(),
  outcome: z.enum(OUTCOMES).nullable(),
  resolution_note: z.string().nullable(),
  appealed_at: atOrNull,
  appeal_text: z.string().nullable(),
  appeal_decided_at: atOrNull,
  appeal_decision: z.enum(APPEAL_DECISIONS).nullable(),
  deadlines: z.strictObject({ acknowledgeBy: at, resolveBy: at, appealDecideBy: atOrNull }),
  sla: z.strictObject({
    state: z.enum(['overdue', 'due_soon', 'on_time']),
    late: z.array(z.enum(['acknowledge', 'resolve', 'appeal'])),
    next: atOrNull,
  }),
  /** The reported item, when the URL names one: its public page and picture (none once taken down). */
  item: z
    .strictObject({
      type: contentItemType,
      path: z.string(),
      title: z.string(),
      takenDown: z.boolean(),
      page: z.string(),
      thumbnail: z.string().nullable(),
    })
    .nullable(),
});
export type DeskReport = z.infer<typeof deskReport>;

const itemProblem = z.strictObject({ where: z.string(), reason: z.string() });

/** An ingest run the console queued, with its progress and, once finished, what it did. */
export const ingestRun = z.strictObject({
  id: z.number().int(),
  folder: z.string(),
  status: z.enum(JOB_STATUSES),
  requestedBy: z.string(),
  total: z.number().int(),
  done: z.number().int(),
  lastLine: z.string(),
  report: z
    .strictObject({
      added: z.number().int(),
      updated: z.number().int(),
      unchanged: z.number().int(),
      skipped: z.array(itemProblem),
      failed: z.array(itemProblem),
      notes: z.array(z.string()),
    })
    .nullable(),
  error: z.string().nullable(),
  createdAt: z.number(),
  startedAt: atOrNull,
  finishedAt: atOrNull,
});
export type IngestRun = z.infer<typeof ingestRun>;

/** An item scheduled for release (GET /api/admin/scheduled), and whether "coming soon" teases it. */
export const scheduledItem = z.strictObject({
  type: z.enum(['photoset', 'video', 'vod']),
  path: z.string(),
  title: z.string(),
  publishAt: z.number(),
  teased: z.boolean(),
});
export type ScheduledItem = z.infer<typeof scheduledItem>;

// The smaller answers of the console's content, report desk and ingest calls, by route.

/** POST /api/admin/takedowns and /restores: the item and the catalog generation the change made. */
export const contentChanged = z.strictObject({ type: contentItemType, path: z.string(), generation: z.number().int() });
export type ContentChanged = z.infer<typeof contentChanged>;
/** POST /api/admin/content/edit: the fields that changed (none: nothing written) and the item now. */
export const contentEdited = z.strictObject({
  changed: z.array(z.enum(['title', 'model', 'date', 'price', 'tags'])),
  generation: z.number().int().nullable(),
  item: contentItem,
});
export type ContentEdited = z.infer<typeof contentEdited>;
export const contentScheduled = z.strictObject({ generation: z.number().int(), item: contentItem });
export type ContentScheduled = z.infer<typeof contentScheduled>;
export const contentReencoded = z.strictObject({ item: contentItem });
export type ContentReencoded = z.infer<typeof contentReencoded>;

/** GET /api/admin/reports: the open reports, most urgent first. */
export const deskQueue = z.strictObject({ reports: z.array(deskReport) });
export type DeskQueue = z.infer<typeof deskQueue>;
/** POST /api/admin/reports/:reference/ack|resolve|appeal|decide: the report after the step. */
export const deskAnswer = z.strictObject({ report: deskReport });
export type DeskAnswer = z.infer<typeof deskAnswer>;

/** GET /api/admin/ingests: the folders under INGEST_ROOT and the recent runs. */
export const ingestList = z.strictObject({ folders: z.array(z.string()), runs: z.array(ingestRun) });
export type IngestList = z.infer<typeof ingestList>;
export const ingestAnswer = z.strictObject({ run: ingestRun });
export type IngestAnswer = z.infer<typeof ingestAnswer>;

export const scheduledList = z.strictObject({ items: z.array(scheduledItem) });
export type ScheduledList = z.infer<typeof scheduledList>;
/** POST /api/admin/teasers */
export const teaseAnswer = z.strictObject({
  type: contentItemType,
  path: z.string(),
  teased: z.boolean(),
  publishAt: z.number().nullable(),
  generation: z.number().int(),
});
export type TeaseAnswer = z.infer<typeof teaseAnswer>;

/** POST /api/admin/content/bulk: one change for many items, each applied and audited on its own. */
export const BULK_ACTIONS = ['takedown', 'restore', 'schedule', 'unschedule', 'reencode'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export { BULK_MAX } from './content-bulk-limits';
export const BULK_OUTCOMES = ['changed', 'unchanged', 'failed'] as const;

/** Per item: what changed (or, for a preview, what would), what was already so, what could not. */
export const contentBulkResult = z.strictObject({
  action: z.enum(BULK_ACTIONS),
  preview: z.boolean(),
  items: z.array(
    z.strictObject({
      path: z.string(),
      title: z.string().nullable(),
      outcome: z.enum(BULK_OUTCOMES),
      detail: z.string(),
    }),
  ),
  /** Items that changed (a preview: would change). */
  changed: z.number().int(),
});
export type ContentBulkResult = z.infer<typeof contentBulkResult>;
