import { previewUrl, type PlayableType } from '@media-site/contracts/playback-layout';

// A card's facts as the API sends them; the columns they come from are repository.ts's.

/** A count as the driver returns it (mysql2 may send a string). */
export const countOf = (value: number | string | null | undefined): number => Number(value ?? 0);

/** The card's hover preview: the public thumbnails track once encoded, else null (nothing to ask for). */
export const previewOf = (type: PlayableType, path: string, encoded: number | string | null | undefined): string | null =>
  Number(encoded ?? 0) > 0 ? previewUrl(type, path, 'thumbnails') : null;

/** A clip's stored running time as the API sends it: whole seconds, or null while unknown. */
export const durationOf = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined || !(Number(value) > 0) ? null : Number(value);
