import type { Manifest } from '@media-site/db/encode';
import { renditionDownloadUrl, videoDownloadName, vodDownloadName } from '@media-site/contracts/download-name';
import type { PlayableType } from '@media-site/contracts/playback-layout';
import type { DownloadChoice } from '@media-site/contracts/member-api';
import type { PlayableRow } from './repository';

/** One size a member can download: the original, then each rendition, largest first (contracts/src/member-api.ts). */
export type { DownloadChoice };

type Naming = Pick<PlayableRow, 'path' | 'prename' | 'datetoupload' | 'format'>;

/** The original's file name (spec §7). */
export function originalName(type: PlayableType, item: Naming): string {
  return type === 'video'
    ? videoDownloadName(item.prename)
    : vodDownloadName({ prename: item.prename, path: item.path, format: item.format ?? 0, datetoupload: item.datetoupload });
}

/** Site path of the original: `/members/{video|vod}/{path}/{download name}`. */
export function originalPath(type: PlayableType, item: Naming): string {
  return `/members/${type}/${item.path}/${originalName(type, item)}`;
}

const shortSide = (label: string) => Number.parseInt(label, 10);

/**
 * "Original" (its size from the manifest when the encoder recorded it), then every rendition the
 * manifest lists under its download name (`{base}_{label}.mp4`), largest first. No manifest: the
 * original alone.
 */
export function downloadChoices(type: PlayableType, item: Naming, manifest: Manifest | null): DownloadChoice[] {
  const name = originalName(type, item);
  const original: DownloadChoice = {
    label: 'Original',
    bytes: manifest?.source.bytes ?? null,
    path: `/members/${type}/${item.path}/${name}`,
  };
  const renditions = [...(manifest?.renditions ?? [])]
    .sort((a, b) => shortSide(b.label) - shortSide(a.label) || b.bytes - a.bytes)
    .map((r): DownloadChoice => ({ label: r.label, bytes: r.bytes, path: renditionDownloadUrl(type, item.path, name, r.label) }));
  return [original, ...renditions];
}
