import { z } from 'zod';
import { ContentRuleError, normalizeTags } from '@media-site/db/content';
import type { ItemType } from './layout';

// A control character anywhere makes a title unusable in listings and logs.
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `at most ${max} characters`)
    .refine((v) => ![...v].some((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || ch === '\u007f'), 'must not contain control characters');

function isCalendarDate(v: string): boolean {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'bad date (want YYYY-MM-DD)')
  .refine(isCalendarDate, 'bad date (not a calendar day)');

// 0 = mp4, 1 = mpg (spec: anything but 0 is mpg); names are accepted for readability.
const format = z.union([z.literal(0), z.literal(1), z.literal('mp4').transform(() => 0), z.literal('mpg').transform(() => 1)]);

// decimal(8,2) in the schema.
const price = z
  .number()
  .positive()
  .max(999_999.99)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'at most two decimals');

// Stored folded ("Black and White" → "black and white"), as the console's edit stores them; the
// reason repeats normalizeTags' sentence without its own "tags: " lead, which the path already gives.
const tags = z.array(z.string()).transform((raw, ctx) => {
  try {
    return normalizeTags(raw);
  } catch (err) {
    if (!(err instanceof ContentRuleError)) throw err;
    ctx.addIssue({ code: 'custom', message: err.message.replace(/^tags: /, '') });
    return z.NEVER;
  }
});

const photos = z.strictObject({ updatename: text(200), modelname: text(100), datetoupload: date, tags: tags.optional() });
// No tags: content_tags names photo sets, videos and VODs only (content/tags.ts).
const freephotos = z.strictObject({ updatename: text(200), datetoupload: date });
const video = photos.extend({ prename: text(200) });
// No price: a new VOD gets the default VOD price (the console's Prices), an existing one keeps its own.
const vod = video.extend({ format, price: price.optional() });

export type PhotosMeta = z.infer<typeof photos>;
export type FreePhotosMeta = z.infer<typeof freephotos>;
export type VideoMeta = z.infer<typeof video>;
export type VodMeta = z.infer<typeof vod>;
export type ItemMeta = PhotosMeta | FreePhotosMeta | VideoMeta | VodMeta;

const schemas = { photos, freephotos, video, vod } as const;

export type MetaResult<T> = { ok: true; meta: T } | { ok: false; reason: string };

/** Parses one item's meta.json text; the reason names every problem, field by field. */
export function parseMeta(type: 'photos', raw: string): MetaResult<PhotosMeta>;
export function parseMeta(type: 'freephotos', raw: string): MetaResult<FreePhotosMeta>;
export function parseMeta(type: 'video', raw: string): MetaResult<VideoMeta>;
export function parseMeta(type: 'vod', raw: string): MetaResult<VodMeta>;
export function parseMeta(type: ItemType, raw: string): MetaResult<ItemMeta>;
export function parseMeta(type: ItemType, raw: string): MetaResult<ItemMeta> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'meta.json is not valid JSON' };
  }
  const parsed = schemas[type].safeParse(json);
  if (parsed.success) return { ok: true, meta: parsed.data };
  const problems = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  return { ok: false, reason: `meta.json: ${problems.join('; ')}` };
}
