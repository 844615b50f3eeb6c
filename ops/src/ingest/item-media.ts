import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { extensionOf } from './layout';
import type { FfmpegTools } from '@media-site/encoder';
import { durationSeconds, makeFrames } from './frames';
import { makePhotoThumbs } from './photo-thumbs';
import type { MediaStore } from './media-store';
import type { ScannedItem } from './scan';

export interface MediaContext {
  /** The MEDIA_ROOT tree, or the bucket with STORAGE=s3 (media-store.ts). */
  store: MediaStore;
  /** null: ffmpeg is not available, frames are only copied when the folder provides them. */
  ffmpeg: FfmpegTools | null;
}

export interface ItemMediaResult {
  /** Files written or uploaded (0 on a rerun with nothing new). */
  written: number;
  /** The images the row lists (unreadable ones are left out); null for videos. */
  images: string[] | null;
  notes: string[];
  /** Whether the item's first frame exists (a model without a thumbnail may use it). */
  hasFrame: boolean;
  /** A video's running time as ffprobe reads it; null without ffmpeg, for photos, or when unreadable. */
  duration: number | null;
}

async function namesIn(dir: string | null): Promise<Set<string>> {
  if (!dir) return new Set();
  const entries = await readdir(dir, { withFileTypes: true });
  return new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
}

/** Puts one item's files in the layout the media service serves (MEDIA_ROOT or the bucket). */
export async function placeItemMedia(item: ScannedItem, ctx: MediaContext): Promise<ItemMediaResult> {
  const { store } = ctx;
  const provided = await namesIn(item.thumbsDir);
  const notes: string[] = [];
  let written = 0;

  if (item.type === 'photos' || item.type === 'freephotos') {
    let images = item.images;
    if (item.type === 'photos') {
      const thumbs = await makePhotoThumbs({
        dir: item.dir,
        images,
        thumbsDir: item.thumbsDir,
        providedThumbs: provided,
        destKey: `photosthumbs/${item.path}`,
        store,
      });
      written += thumbs.written;
      const bad = new Set(thumbs.unreadable.map((u) => u.image));
      for (const u of thumbs.unreadable) notes.push(`skipped ${item.type}/${item.path}/${u.image}: unreadable image (${u.reason})`);
      images = images.filter((i) => !bad.has(i));
    }
    for (const image of images) {
      if ((await store.place(join(item.dir, image), `${item.type}/${item.path}/${image}`)) === 'placed') written++;
    }
    return { written, images, notes, hasFrame: false, duration: null };
  }

  if (extensionOf(item.videoFile) !== extensionOf(item.downloadName)) {
    notes.push(
      `${item.type}/${item.path}: ${item.videoFile} is stored as ${item.downloadName}, the download name, whose extension differs`,
    );
  }
  if ((await store.place(join(item.dir, item.videoFile), `${item.type}/${item.path}/${item.downloadName}`)) === 'placed') written++;
  const frames = await makeFrames({
    video: join(item.dir, item.videoFile),
    path: item.path,
    thumbsDir: item.thumbsDir,
    providedThumbs: provided,
    destKey: `${item.type}thumbs/${item.path}`,
    store,
    tools: ctx.ffmpeg,
  });
  written += frames.written;
  if (frames.missing.length) {
    notes.push(
      `${item.type}/${item.path}: no thumbnails ${frames.missing.join(', ')} (${ctx.ffmpeg ? 'ffmpeg could not extract them' : 'ffmpeg not found and none provided'})`,
    );
  }
  const duration = ctx.ffmpeg ? await durationSeconds(ctx.ffmpeg, join(item.dir, item.videoFile)) : null;
  return { written, images: null, notes, hasFrame: !frames.missing.includes(`${item.path}_02.jpg`), duration };
}
