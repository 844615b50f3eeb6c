import type { Rendition } from './api/playback';

/** localStorage: the height (px) of the rendition the member last picked from the quality menu. */
export const QUALITY_KEY = 'player.quality';

/** The remembered height, or null (never picked, storage blocked, or junk). */
export function savedQualityHeight(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): number | null {
  try {
    const value = Number(storage?.getItem(QUALITY_KEY));
    return Number.isInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

export function rememberQualityHeight(height: number, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(QUALITY_KEY, String(height));
  } catch {
    // Private mode or full storage: the choice lasts for this video only.
  }
}

/**
 * The rendition for the member's remembered height: that height when this video has it, else the
 * nearest lower one; `automatic` when nothing was picked yet or every rendition is taller.
 */
export function preferredRendition(
  renditions: readonly Rendition[],
  savedHeight: number | null,
  automatic: Rendition | undefined,
): Rendition | undefined {
  if (savedHeight === null) return automatic;
  const lower = renditions.filter((r) => r.height <= savedHeight).sort((a, b) => b.height - a.height);
  return lower[0] ?? automatic;
}
