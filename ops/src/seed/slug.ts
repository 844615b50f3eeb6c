// Letters NFD leaves whole; same idea as modelInitial's fold table.
const FOLD: Record<string, string> = { ø: 'o', ł: 'l', æ: 'ae', œ: 'oe', đ: 'd', ß: 'ss', þ: 'th' };

/** URL-safe slug: lowercase ASCII letters, digits and single dashes. */
export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[øłæœđßþ]/g, (c) => FOLD[c] ?? '')
      .replace(/['’]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      // Runs are single dashes by now (a `-+$` would take quadratic time on a long run).
      .replace(/^-|-$/g, '')
  );
}

/** CamelCase ASCII, for file-name-like prenames ("Ava O'Neill" -> "AvaONeill"). */
export function camelName(text: string): string {
  return slugify(text)
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}
