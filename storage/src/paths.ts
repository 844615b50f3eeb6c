import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join, sep } from 'node:path';
import { AppError, notFound } from '@media-site/contracts/errors';

export const FAMILIES = [
  'photosthumbs',
  'videothumbs',
  'vodthumbs',
  'freephotos',
  'photos',
  'video',
  'vod',
  'videorenditions',
  'vodrenditions',
  'videopreviews',
  'vodpreviews',
] as const;
export type Family = (typeof FAMILIES)[number];

export interface MediaPath {
  family: Family;
  /** Decoded segments after the family. */
  rest: string[];
  /** Decoded path below MEDIA_ROOT, `/`-separated: what signed URLs are bound to. */
  relative: string;
}

export interface ResolvedFile extends MediaPath {
  absolute: string;
  stat: Stats;
}

const badPath = () => new AppError('bad_path', 'Malformed media path');

/**
 * Turns the raw request path (still percent-encoded) into media segments. Decodes exactly once:
 * `%252e%252e` stays the literal name `%2e%2e` and is simply not found. Anything that could change
 * meaning on a second decode or on another OS (dot segments, encoded slashes, backslashes, NUL and
 * other control characters, empty segments) is refused with 400 before the file system is touched.
 */
export function parseMediaPath(rawPath: string): MediaPath {
  if (!rawPath.startsWith('/members/')) throw notFound();
  const segments = rawPath.slice('/members/'.length).split('/');
  const decoded = segments.map((segment) => {
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      throw badPath();
    }
    // eslint-disable-next-line no-control-regex
    if (value === '' || value === '.' || value === '..' || /[/\\\u0000-\u001f\u007f]/.test(value)) throw badPath();
    return value;
  });
  const [family, ...rest] = decoded;
  if (!FAMILIES.includes(family as Family) || rest.length === 0) throw notFound();
  // Dotfiles (.htaccess, .git, editor droppings) are never media.
  if (rest.some((s) => s.startsWith('.'))) throw notFound();
  return { family: family as Family, rest, relative: decoded.join('/') };
}

/** Resolves symlinks and requires a regular file inside the (real) root; anything else is 404. */
export async function resolveMediaFile(realRoot: string, path: MediaPath): Promise<ResolvedFile> {
  let absolute: string;
  let info: Stats;
  try {
    absolute = await realpath(join(realRoot, ...path.relative.split('/')));
    info = await stat(absolute);
  } catch {
    throw notFound();
  }
  if (!absolute.startsWith(realRoot + sep) || !info.isFile()) throw notFound();
  return { ...path, absolute, stat: info };
}
