/** The spec §7 download-name rules, the single implementation used by the seed, bff and media service. */

export const VOD_NAME_CUTOFF = '2024-01-28';

const VIDEO_READY = /001\.(?:mp4|mpg|wmv)$/i;

/** Video: keep a name already ending in 001.mp4/.mpg/.wmv; otherwise add 001.mp4 for HD, 001.mpg else. */
export function videoDownloadName(prename: string): string {
  if (VIDEO_READY.test(prename)) return prename;
  if (prename.includes('HD')) return `${prename}001.mp4`;
  return `${prename}001.mpg`;
}

export interface VodNaming {
  prename: string;
  path: string;
  /** 0 = mp4, anything else = mpg. */
  format: number;
  /** ISO date YYYY-MM-DD. */
  datetoupload: string;
}

export function vodExtension(format: number): 'mp4' | 'mpg' {
  return format === 0 ? 'mp4' : 'mpg';
}

function withoutExtension(name: string): string {
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}

/**
 * VOD: uploaded on or after 2024-01-28 → prename without extension + .mp4/.mpg by format.
 * Earlier → the path is the file name; a path without an extension gets the format's extension so
 * players and download managers recognise the file (a decision recorded in the README).
 */
export function vodDownloadName(vod: VodNaming): string {
  const ext = vodExtension(vod.format);
  if (vod.datetoupload >= VOD_NAME_CUTOFF) return `${withoutExtension(vod.prename)}.${ext}`;
  return /\.[A-Za-z0-9]{1,5}$/.test(vod.path) ? vod.path : `${vod.path}.${ext}`;
}

/** A rendition's label in a file name: `<short side>p` (`1080p`, `720p`), as the encoder names them. */
const RENDITION_LABEL = /^\d{1,4}p$/;
const DOWNLOAD_TYPES = new Map<string, 'video' | 'vod'>([
  ['videorenditions', 'video'],
  ['vodrenditions', 'vod'],
]);
const DOWNLOAD_FAMILY = { video: 'videorenditions', vod: 'vodrenditions' } as const;

/**
 * A folder or file name as a path segment: nothing that could mean another place once decoded or on
 * another OS (dot segments, slashes, backslashes, encoded slashes, control characters).
 */
function plainSegment(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return value !== '' && value !== '.' && value !== '..' && !/[/\\\u0000-\u001f\u007f]|%(?:2f|5c|00)/i.test(value);
}

/** The name a rendition is downloaded under: the original's download name without its extension, `_`, the label: `Clip_A1_HD001_720p.mp4`. */
export function renditionDownloadName(originalName: string, label: string): string {
  if (!RENDITION_LABEL.test(label)) throw new Error(`not a rendition label: ${label}`);
  return `${withoutExtension(originalName)}_${label}.mp4`;
}

/** Site path of a rendition's download: `/members/videorenditions/{path}/{base}_{label}.mp4` (the media service serves `{label}.mp4` under that name). */
export function renditionDownloadUrl(type: 'video' | 'vod', path: string, originalName: string, label: string): string {
  return `/members/${DOWNLOAD_FAMILY[type]}/${path}/${renditionDownloadName(originalName, label)}`;
}

/**
 * `{base}_{label}.mp4` → its parts, or null for any other file name (a playback `{label}.mp4` among them).
 * The last `_` splits, so a base may contain `_` itself.
 */
export function parseRenditionDownloadName(file: string): { base: string; label: string; file: string } | null {
  if (!plainSegment(file) || file.startsWith('.') || !file.endsWith('.mp4')) return null;
  const stem = file.slice(0, -'.mp4'.length);
  const cut = stem.lastIndexOf('_');
  if (cut < 1) return null;
  const label = stem.slice(cut + 1);
  if (!RENDITION_LABEL.test(label)) return null;
  return { base: stem.slice(0, cut), label, file: `${label}.mp4` };
}

/** A site path (`/members/vodrenditions/{path}/{name}`) or media path of a rendition download → what it stands for, or null. */
export function parseRenditionDownloadUrl(
  sitePath: string,
): { type: 'video' | 'vod'; path: string; label: string; name: string; file: string } | null {
  const segments = sitePath.replace(/^\/?members\//, '').split('/');
  if (segments.length !== 3 || !segments.every(plainSegment)) return null;
  const [family, path, name] = segments as [string, string, string];
  const type = DOWNLOAD_TYPES.get(family);
  if (!type || path.startsWith('.')) return null;
  const parsed = parseRenditionDownloadName(name);
  return parsed ? { type, path, label: parsed.label, name, file: parsed.file } : null;
}
