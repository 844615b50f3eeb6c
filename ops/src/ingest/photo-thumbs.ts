import { join } from 'node:path';
import sharp from 'sharp';
import { COVER_NAME, extensionOf } from './layout';
import { isFresh, placeFile, writeDerived, type PlaceMode } from './place';

// The sizes the demo seed uses, so ingested and demo sets look alike in the galleries.
export const COVER = { width: 640, height: 427 } as const;
export const THUMB = { width: 320, height: 213 } as const;
// Refuse decompression bombs: a 100-megapixel original is already far beyond a camera's output.
const MAX_INPUT_PIXELS = 100_000_000;

async function resize(src: string, size: { width: number; height: number }, out: string): Promise<void> {
  const ext = extensionOf(out);
  const image = sharp(src, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(size.width, size.height, { fit: 'cover' });
  const encoded = ext === '.png' ? image.png() : ext === '.webp' ? image.webp({ quality: 78 }) : image.jpeg({ quality: 78, mozjpeg: true });
  await encoded.toFile(out);
}

/** A provided thumbnail is copied; otherwise one is made from `src` unless a fresh one exists. */
async function thumbnail(
  src: string,
  provided: string | null,
  dest: string,
  size: { width: number; height: number },
  mode: PlaceMode,
): Promise<boolean> {
  if (provided) return (await placeFile(provided, dest, mode)) === 'placed';
  if (await isFresh(dest, src)) return false;
  await writeDerived(dest, src, (tmp) => resize(src, size, tmp));
  return true;
}

export interface PhotoThumbsInput {
  /** Source directory of the set's images. */
  dir: string;
  images: string[];
  /** Ready-made thumbnails (photosthumbs/{path} in the ingest folder), if any. */
  thumbsDir: string | null;
  providedThumbs: ReadonlySet<string>;
  /** MEDIA_ROOT/photosthumbs/{path}. */
  destDir: string;
  mode: PlaceMode;
}

export interface PhotoThumbsResult {
  written: number;
  /** Images that could not be decoded: left out of the set. */
  unreadable: { image: string; reason: string }[];
}

/** large.jpg (the set cover, from the first readable image) and one small thumbnail per image. */
export async function makePhotoThumbs(input: PhotoThumbsInput): Promise<PhotoThumbsResult> {
  const result: PhotoThumbsResult = { written: 0, unreadable: [] };
  const provided = (name: string) => (input.thumbsDir && input.providedThumbs.has(name) ? join(input.thumbsDir, name) : null);
  const readable: string[] = [];
  for (const image of input.images) {
    try {
      if (await thumbnail(join(input.dir, image), provided(image), join(input.destDir, image), THUMB, input.mode)) result.written++;
      readable.push(image);
    } catch (err) {
      result.unreadable.push({ image, reason: err instanceof Error ? (err.message.split('\n')[0] ?? 'unreadable') : String(err) });
    }
  }
  const first = readable[0];
  if (first && (await thumbnail(join(input.dir, first), provided(COVER_NAME), join(input.destDir, COVER_NAME), COVER, input.mode)))
    result.written++;
  return result;
}
