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
