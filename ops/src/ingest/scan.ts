import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { videoDownloadName, vodDownloadName } from '@media-site/contracts/download-name';
import {
  extensionOf,
  IMAGE_EXTENSIONS,
  ITEM_TYPES,
  MAX_FILENAME_LENGTH,
  MAX_PATH_LENGTH,
  META_FILE,
  COVER_NAME,
  naturalCompare,
  THUMB_DIRS,
  unsafeNameReason,
  VIDEO_EXTENSIONS,
  type ItemType,
  type ThumbDir,
} from './layout';
import { parseMeta, type FreePhotosMeta, type PhotosMeta, type VideoMeta, type VodMeta } from './meta';

interface ItemBase {
  /** The item's directory name: the row's `path` and its folder under MEDIA_ROOT. */
  path: string;
  /** Absolute source directory. */
  dir: string;
  /** Source directory of ready-made thumbnails, when the folder has one. */
  thumbsDir: string | null;
}

export type ScannedItem =
  | (ItemBase & { type: 'photos'; meta: PhotosMeta; images: string[] })
  | (ItemBase & { type: 'freephotos'; meta: FreePhotosMeta; images: string[] })
  | (ItemBase & { type: 'video'; meta: VideoMeta; videoFile: string; downloadName: string })
  | (ItemBase & { type: 'vod'; meta: VodMeta; videoFile: string; downloadName: string });

export interface Skip {
  /** Relative to the ingest folder, e.g. `photos/set-a` or `photos/set-a/notes.txt`. */
  where: string;
  reason: string;
}

export interface ScanResult {
  items: ScannedItem[];
  skipped: Skip[];
}

type Entry = { name: string; kind: 'dir' | 'file' | 'link' | 'other' };

// Dotfiles (.DS_Store, editor swap files) are noise, not content: ignored without a report.
async function listDir(dir: string): Promise<Entry[]> {
  const names = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort(naturalCompare);
  return Promise.all(
    names.map(async (name) => {
      const s = await lstat(join(dir, name));
      return { name, kind: s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other' } as const;
    }),
  );
}

function notPlain(entry: Entry): string | null {
  if (entry.kind === 'link') return 'symbolic link (not followed)';
  if (entry.kind === 'other') return 'not a regular file or directory';
  return null;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    const s = await lstat(path);
    return s.isDirectory() && !s.isSymbolicLink();
  } catch {
    return false;
  }
}

/** Reads an ingest folder (layout in docs/operate.md) without touching the catalog or MEDIA_ROOT. */
export async function scanFolder(root: string): Promise<ScanResult> {
  const result: ScanResult = { items: [], skipped: [] };
  const top = await listDir(root);
  const typeDirs = new Set<string>();
  for (const entry of top) {
    const problem = notPlain(entry);
    if (problem) result.skipped.push({ where: entry.name, reason: problem });
    else if (entry.kind !== 'dir') result.skipped.push({ where: entry.name, reason: 'not a content directory' });
    else if ((ITEM_TYPES as readonly string[]).includes(entry.name)) typeDirs.add(entry.name);
    else if (!(entry.name in THUMB_DIRS)) {
      result.skipped.push({
        where: entry.name,
        reason: `unknown type (expected ${[...ITEM_TYPES, ...Object.keys(THUMB_DIRS)].join(', ')})`,
      });
    }
  }
  for (const type of ITEM_TYPES) {
    if (typeDirs.has(type)) await scanType(root, type, result);
  }
  await reportOrphanThumbs(root, result);
  return result;
}

async function scanType(root: string, type: ItemType, result: ScanResult): Promise<void> {
  const seen = new Map<string, string>();
  for (const entry of await listDir(join(root, type))) {
    const where = `${type}/${entry.name}`;
    const problem = notPlain(entry) ?? (entry.kind === 'dir' ? unsafeNameReason(entry.name, MAX_PATH_LENGTH) : 'not an item directory');
    if (problem) {
      result.skipped.push({ where, reason: problem });
      continue;
    }
    // MySQL compares paths case-insensitively: two such items would be one row there.
    const folded = entry.name.toLowerCase();
    const clash = seen.get(folded);
    if (clash) {
      result.skipped.push({ where, reason: `path differs from ${type}/${clash} only in letter case` });
      continue;
    }
    seen.set(folded, entry.name);
    const item = await scanItem(root, type, entry.name, result.skipped);
    if (item) result.items.push(item);
  }
}

async function scanItem(root: string, type: ItemType, path: string, skipped: Skip[]): Promise<ScannedItem | null> {
  const dir = join(root, type, path);
  const where = `${type}/${path}`;
  const entries = await listDir(dir);
  const metaEntry = entries.find((e) => e.name === META_FILE);
  if (!metaEntry || metaEntry.kind !== 'file') {
    skipped.push({ where, reason: `missing ${META_FILE}` });
    return null;
  }
  const raw = await readFile(join(dir, META_FILE), 'utf8');
  const wanted: readonly string[] = type === 'video' || type === 'vod' ? VIDEO_EXTENSIONS : IMAGE_EXTENSIONS;
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.name === META_FILE) continue;
    const problem =
      notPlain(entry) ??
      (entry.kind === 'dir' ? 'nested directory' : null) ??
      unsafeNameReason(entry.name, MAX_FILENAME_LENGTH) ??
      (type === 'photos' && entry.name === COVER_NAME ? `${COVER_NAME} is reserved for the set cover` : null) ??
      (wanted.includes(extensionOf(entry.name))
        ? null
        : `not ${type === 'video' || type === 'vod' ? 'a video' : 'an image'} file (${wanted.join(' ')})`);
    if (problem) skipped.push({ where: `${where}/${entry.name}`, reason: problem });
    else files.push(entry.name);
  }
  const thumbsDirName = thumbDirOf(type);
  const thumbsDir = thumbsDirName && (await isDirectory(join(root, thumbsDirName, path))) ? join(root, thumbsDirName, path) : null;
  const base = { path, dir, thumbsDir };

  const parsed = parseMeta(type, raw);
  if (!parsed.ok) {
    skipped.push({ where, reason: parsed.reason });
    return null;
  }
  // parseMeta(type) validated the meta against this type's schema, so the pairing below holds.
  if (type === 'photos' || type === 'freephotos') {
    if (files.length) return { ...base, type, meta: parsed.meta, images: files } as ScannedItem;
    skipped.push({ where, reason: 'no images' });
    return null;
  }
  const [videoFile] = files;
  if (!videoFile || files.length !== 1) {
    skipped.push({ where, reason: `expected exactly one video file, found ${files.length}` });
    return null;
  }
  // The download name is the file's real name under MEDIA_ROOT, so it has to be a safe one too.
  const downloadName =
    type === 'video' ? videoDownloadName((parsed.meta as VideoMeta).prename) : vodDownloadName({ ...(parsed.meta as VodMeta), path });
  const unsafe = unsafeNameReason(downloadName, MAX_FILENAME_LENGTH);
  if (unsafe) {
    skipped.push({ where, reason: `prename gives the file name "${downloadName}": ${unsafe}` });
    return null;
  }
  return { ...base, type, meta: parsed.meta, videoFile, downloadName } as ScannedItem;
}

function thumbDirOf(type: ItemType): ThumbDir | null {
  const found = (Object.entries(THUMB_DIRS) as [ThumbDir, ItemType][]).find(([, t]) => t === type);
  return found ? found[0] : null;
}

async function reportOrphanThumbs(root: string, result: ScanResult): Promise<void> {
  for (const [thumbDir, type] of Object.entries(THUMB_DIRS) as [ThumbDir, ItemType][]) {
    if (!(await isDirectory(join(root, thumbDir)))) continue;
    for (const entry of await listDir(join(root, thumbDir))) {
      if (!(await isDirectory(join(root, type, entry.name)))) {
        result.skipped.push({ where: `${thumbDir}/${entry.name}`, reason: `no matching ${type}/${entry.name} item` });
      }
    }
  }
}
