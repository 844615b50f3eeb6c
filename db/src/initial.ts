/** The A–Z bucket a model name is listed under: diacritics stripped, upper-cased; '#' otherwise. */
// Latin letters that NFD does not decompose into a base letter plus a mark.
const FOLD: Record<string, string> = {
  Ø: 'O',
  ø: 'O',
  Ł: 'L',
  ł: 'L',
  Æ: 'A',
  æ: 'A',
  Œ: 'O',
  œ: 'O',
  Đ: 'D',
  đ: 'D',
  ß: 'S',
  Þ: 'T',
  þ: 'T',
};

export function modelInitial(modelname: string): string {
  const raw = modelname
    .trim()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .charAt(0);
  const first = (FOLD[raw] ?? raw).toUpperCase();
  return /^[A-Z]$/.test(first) ? first : '#';
}

// Lower-case letters that survive NFKD + mark stripping but that a searcher types as plain Latin.
const SEARCH_FOLD: Record<string, string> = {
  ø: 'o',
  ł: 'l',
  æ: 'ae',
  œ: 'oe',
  đ: 'd',
  ð: 'd',
  ß: 'ss',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŋ: 'n',
};
const SEARCH_FOLD_RE = new RegExp(`[${Object.keys(SEARCH_FOLD).join('')}]`, 'g');

/** The width of the search_text column (migrations/001_catalog). */
export const SEARCH_TEXT_MAX = 310;

/**
 * Text as search compares it: compatibility-decomposed, diacritics dropped, lower-cased, and the
 * few Latin letters without a decomposition spelled out ("Émilie" → "emilie", "Łódź" → "lodz",
 * "Straße" → "strasse"). Applied to the stored search_text and to every search word alike, so the
 * in-process index, MariaDB/MySQL and SQLite compare the same strings byte for byte.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(SEARCH_FOLD_RE, (c) => SEARCH_FOLD[c]!);
}

/**
 * The search_text column: folded title + "\n" + folded model name. Cut to the column width (only a
 * title full of expanding characters gets there); a cut never leaves half a surrogate pair.
 */
export function searchText(updatename: string, modelname: string): string {
  const text = `${foldForSearch(updatename)}\n${foldForSearch(modelname)}`;
  if (text.length <= SEARCH_TEXT_MAX) return text;
  return text.slice(0, SEARCH_TEXT_MAX).replace(/[\uD800-\uDBFF]$/, '');
}
