/** The A–Z bucket a model name is listed under: diacritics stripped, upper-cased; '#' otherwise. */
// Latin letters that NFD does not decompose into a base letter plus a mark.
const FOLD: Record<string, string> = { Ø: 'O', ø: 'O', Ł: 'L', ł: 'L', Æ: 'A', æ: 'A', Œ: 'O', œ: 'O', Đ: 'D', đ: 'D', ß: 'S', Þ: 'T', þ: 'T' };

export function modelInitial(modelname: string): string {
  const raw = modelname.trim().normalize('NFD').replace(/[\u0300-\u036f]/g, '').charAt(0);
  const first = (FOLD[raw] ?? raw).toUpperCase();
  return /^[A-Z]$/.test(first) ? first : '#';
}

export function searchText(updatename: string, modelname: string): string {
  return `${updatename.toLowerCase()}\n${modelname.toLowerCase()}`;
}
