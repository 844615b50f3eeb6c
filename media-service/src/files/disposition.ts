/**
 * RFC 6266 `attachment` with both an ASCII `filename` (for old clients and curl/wget) and a UTF-8
 * `filename*` (RFC 8187). Written here rather than with the content-disposition package so the
 * ASCII fallback is ours (the package turns non-Latin-1 into `?`) and `filename*` is always present.
 */
function asciiFallback(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')

    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return ascii.trim() === '' ? 'download' : ascii;
}

function rfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function attachmentDisposition(name: string): string {
  return `attachment; filename="${asciiFallback(name)}"; filename*=UTF-8''${rfc8187(name)}`;
}

/** `inline`, shown in the page, with a name for "save as" (ASCII only, as browsers read it). */
export function inlineDisposition(name: string): string {
  return `inline; filename="${asciiFallback(name)}"`;
}
