/** What an ingest folder may hold: one directory per content type, one directory per item. */
export const ITEM_TYPES = ['photos', 'freephotos', 'video', 'vod'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** Optional ready-made thumbnails; generated when absent. */
export const THUMB_DIRS = { photosthumbs: 'photos', videothumbs: 'video', vodthumbs: 'vod' } as const;
export type ThumbDir = keyof typeof THUMB_DIRS;

export const META_FILE = 'meta.json';
/** photosthumbs/{path}/large.jpg: a photo set's cover. */
export const COVER_NAME = 'large.jpg';

export const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp'] as const;
export const VIDEO_EXTENSIONS = ['.mp4', '.m4v', '.mov', '.mpg', '.mpeg', '.wmv', '.avi', '.mkv', '.webm'] as const;

export const FRAME_SUFFIXES = ['02', '05', '10', '15'] as const;
/** Where each frame is taken, as a share of the running time (suffix 02 → 2 %). */
export const FRAME_SHARES: Record<(typeof FRAME_SUFFIXES)[number], number> = { '02': 0.02, '05': 0.05, '10': 0.1, '15': 0.15 };

// Names become URL path segments and file names under MEDIA_ROOT: a conservative alphabet keeps
// them safe everywhere (no encoding, no traversal, no case-folding surprises on the wire).
const SAFE_NAME = /^[A-Za-z0-9][\w.-]*$/;
export const MAX_PATH_LENGTH = 150;
export const MAX_FILENAME_LENGTH = 200;

export function unsafeNameReason(name: string, maxLength: number): string | null {
  if (name.length > maxLength) return `name longer than ${maxLength} characters`;
  if (!SAFE_NAME.test(name) || name.includes('..')) return "unsafe name (letters, digits, '.', '_' and '-' only; no leading dot, no '..')";
  return null;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });
/** image2 before image10; the same order on every machine and every run. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
