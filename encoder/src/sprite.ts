import sharp from 'sharp';
import type { Size } from './ladder';
import { SPRITE_COLUMNS } from './ladder';

export interface SpriteLayout {
  tile: Size;
  frames: number;
  columns: number;
  rows: number;
}

export function spriteLayout(tile: Size, frames: number): SpriteLayout {
  const columns = Math.min(frames, SPRITE_COLUMNS);
  return { tile, frames, columns, rows: Math.ceil(frames / columns) };
}

/** `hh:mm:ss.mmm`, as WebVTT wants. */
export function vttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/**
 * The thumbnails track for seek-bar previews: cue i spans [i·interval, (i+1)·interval) (the last
 * one runs to the end) and names its tile as a media fragment of the sprite, relative to the track
 * (`sprite.jpg#xywh=x,y,w,h`), as JW Player, video.js and Vidstack read it.
 */
export function thumbnailsVtt(layout: SpriteLayout, interval: number, duration: number, spriteFile: string): string {
  const lines = ['WEBVTT', ''];
  const { tile } = layout;
  for (let i = 0; i < layout.frames; i++) {
    const start = i * interval;
    const end = i === layout.frames - 1 ? duration : Math.min(duration, (i + 1) * interval);
    if (end <= start) break;
    const x = (i % layout.columns) * tile.width;
    const y = Math.floor(i / layout.columns) * tile.height;
    lines.push(`${vttTime(start)} --> ${vttTime(end)}`, `${spriteFile}#xywh=${x},${y},${tile.width},${tile.height}`, '');
  }
  return lines.join('\n');
}

/** Lays the frames (files of exactly the tile size, in time order) out in a grid, one JPEG. */
export async function composeSprite(frames: readonly string[], layout: SpriteLayout, out: string): Promise<Size> {
  const { tile, columns, rows } = layout;
  const size = { width: columns * tile.width, height: rows * tile.height };
  await sharp({ create: { ...size, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .composite(frames.map((input, i) => ({ input, left: (i % columns) * tile.width, top: Math.floor(i / columns) * tile.height })))
    .jpeg({ quality: 72, mozjpeg: true })
    .toFile(out);
  return size;
}
