import { foldForSearch } from '@media-site/db';
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
