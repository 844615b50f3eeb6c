import { foldForSearch } from '@media-site/db';
import { MODEL_MAX, normalizeTag } from '@media-site/db/content';
import { SEARCH_DATES, SEARCH_DURATIONS, SEARCH_SORTS, SEARCH_TYPES, TAG_MAX } from '@media-site/contracts/search-filters';
import { z } from 'zod';
import { stop, textParam } from '../shared/params';

export const SEARCH_TERM_MAX = 100;
export const SEARCH_WORDS_MAX = 8;

/**
 * The search term as the words every match must contain, in any order: folded like search_text
 * (diacritics dropped, lower-cased), split on white space, duplicates dropped, sorted so that
 * "flex mara" and "mara flex" are one question (and one cache entry).
 */
export const searchTermParam = textParam('search term', SEARCH_TERM_MAX)
  .transform((term) => [...new Set(foldForSearch(term).split(/\s+/u).filter(Boolean))].sort())
  .pipe(
    z
      .array(z.string())
      .min(1, stop('search term must hold at least one letter or digit'))
      .max(SEARCH_WORDS_MAX, stop(`search term must be at most ${SEARCH_WORDS_MAX} words`)),
  );

const oneOf = <T extends string>(name: string, values: readonly [T, ...T[]]) =>
  z.enum(values, { error: `${name} must be one of ${values.join(', ')}` }).optional();

/** A tag as the filter compares it: folded and checked as stored (db content/tags.ts). */
const tagParam = z
  .string({ error: 'tag must be given once' })
  .max(TAG_MAX * 2, stop(`tag must be at most ${TAG_MAX} characters`))
  .transform((raw, ctx) => {
    try {
      return normalizeTag(raw);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message.replace(/^tags: /, 'tag: ') : 'bad tag' });
      return z.NEVER;
    }
  })
  .optional();

/**
 * The search's filters and sort, from the query string (each at most once; an unknown name is a 400
 * naming it, so a typo never silently shows everything).
 */
export const searchFiltersQuery = z.strictObject(
  {
    type: oneOf('type', SEARCH_TYPES),
    model: z.string({ error: 'model must be given once' }).pipe(textParam('model', MODEL_MAX)).optional(),
    tag: tagParam,
    duration: oneOf('duration', SEARCH_DURATIONS),
    date: oneOf('date', SEARCH_DATES),
    sort: oneOf('sort', SEARCH_SORTS),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown filter ${String(issue.keys[0]).slice(0, 40)}` : undefined) },
);
