import { copyFile, link, lstat, mkdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname } from 'node:path';

/** copy: MEDIA_ROOT owns its bytes (the default). link: hard links, falling back to a copy across filesystems. */
export type PlaceMode = 'copy' | 'link';

async function statOrNull(path: string) {
  try {
    return await lstat(path);
  } catch {
    return null;
  }
}

/**
 * Puts `src` at `dest` unless the same file is already there (same inode, or same size and
 * modification time: a copy carries the source's mtime). Write-then-rename, so a reader or an
 * interrupted run never sees half a file.
 */
export async function placeFile(src: string, dest: string, mode: PlaceMode): Promise<'placed' | 'same'> {
  const [from, to] = await Promise.all([stat(src), statOrNull(dest)]);
  if (to?.isFile() && ((to.ino === from.ino && to.dev === from.dev) || (to.size === from.size && sameTime(to.mtimeMs, from.mtimeMs)))) {
    return 'same';
  }
  await mkdir(dirname(dest), { recursive: true });
  const tmp = `${dest}.ingest-${process.pid}.tmp`;
  await rm(tmp, { force: true });
  try {
    if (mode === 'link') {
      try {
        await link(src, tmp);
      } catch (err) {
        if (!isCode(err, 'EXDEV', 'EPERM', 'EMLINK')) throw err;
        await copyWithTimes(src, tmp, from.atime, from.mtime);
      }
    } else {
      await copyWithTimes(src, tmp, from.atime, from.mtime);
    }
    await rename(tmp, dest);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return 'placed';
}

// utimes goes through a float of seconds: a copied time can come back a fraction of a millisecond off.
function sameTime(a: number, b: number): boolean {
  return Math.abs(a - b) < 1;
}

async function copyWithTimes(src: string, dest: string, atime: Date, mtime: Date): Promise<void> {
  await copyFile(src, dest);
  await utimes(dest, atime, mtime);
}

function isCode(err: unknown, ...codes: string[]): boolean {
  return typeof err === 'object' && err !== null && codes.includes((err as { code?: string }).code ?? '');
}

/** A derived file (thumbnail, frame) is fresh when it exists and is not older than its source. */
export async function isFresh(derived: string, source: string): Promise<boolean> {
  const [d, s] = await Promise.all([statOrNull(derived), stat(source)]);
  return Boolean(d?.isFile() && d.size > 0 && (d.mtimeMs >= s.mtimeMs || sameTime(d.mtimeMs, s.mtimeMs)));
}

export async function exists(path: string): Promise<boolean> {
  return (await statOrNull(path)) !== null;
}

/** Writes a derived file via a temporary name and stamps it with the source's time (see isFresh). */
export async function writeDerived(dest: string, source: string, produce: (tmp: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(dest), { recursive: true });
  const tmp = `${dest}.ingest-${process.pid}.tmp${extOf(dest)}`;
  try {
    await produce(tmp);
    const s = await stat(source);
    await utimes(tmp, s.atime, s.mtime);
    await rename(tmp, dest);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

// ffmpeg and sharp pick the output format from the extension, so the temporary name keeps it.
export function extOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') ? path.slice(dot) : '';
}
