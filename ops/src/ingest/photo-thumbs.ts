import { join } from 'node:path';
import sharp from 'sharp';
import { COVER_NAME, extensionOf } from './layout';
import { BucketError, type MediaStore } from './media-store';

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
  store: MediaStore,
  src: string,
  provided: string | null,
  key: string,
  size: { width: number; height: number },
): Promise<boolean> {
  if (provided) return (await store.place(provided, key)) === 'placed';
  if (await store.isFresh(key, src)) return false;
  await store.write(key, src, (tmp) => resize(src, size, tmp));
  return true;
}

export interface PhotoThumbsInput {
  /** Source directory of the set's images. */
  dir: string;
  images: string[];
  /** Ready-made thumbnails (photosthumbs/{path} in the ingest folder), if any. */
  thumbsDir: string | null;
  providedThumbs: ReadonlySet<string>;
  /** `photosthumbs/{path}`: the media path the thumbnails go under. */
  destKey: string;
  store: MediaStore;
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
      if (await thumbnail(input.store, join(input.dir, image), provided(image), `${input.destKey}/${image}`, THUMB)) result.written++;
      readable.push(image);
    } catch (err) {
      if (err instanceof BucketError) throw err;
      result.unreadable.push({ image, reason: err instanceof Error ? (err.message.split('\n')[0] ?? 'unreadable') : String(err) });
    }
  }
  const first = readable[0];
  if (first && (await thumbnail(input.store, join(input.dir, first), provided(COVER_NAME), `${input.destKey}/${COVER_NAME}`, COVER)))
    result.written++;
  return result;
}
