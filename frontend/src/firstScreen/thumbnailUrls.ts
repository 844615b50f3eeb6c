// Widths the media service renders on `?w=` (one list, shared with the server contract).
export const VARIANT_WIDTHS = [160, 320, 480, 640, 960, 1280] as const;
const VARIANT_PATH = /^\/members\/(?:photosthumbs|videothumbs|vodthumbs)\//;
// A free set's card picture comes from the bff as a 640 px variant already (`?w=640`): the same
// file at the other widths too, so a phone's card takes the 320 px one.
const FREE_SET_VARIANT = /^(\/members\/freephotos\/[^?]+)\?w=\d+$/;

/** A card's box: 4:3, the size the `src` is picked for and the slot `sizes` describes. */
export const CARD_WIDTH = 640;
export const CARD_HEIGHT = 480;
export const CARD_SIZES = '(min-width: 1024px) 20vw, 50vw';

export function variantSrcSet(src: string): string | undefined {
  if (!VARIANT_PATH.test(src)) return undefined;
  return VARIANT_WIDTHS.map((width) => `${src}?w=${width} ${width}w`).join(', ');
}

function closestWidth(width: number): number {
  return VARIANT_WIDTHS.find((candidate) => candidate >= width) ?? 1280;
}

/**
 * What an `<img>` of `src` at `width` asks for (LazyImage): a `?w=` variant with a srcset where the
 * media service renders them, else the file as it is. The first screen's preloads use the same, so
 * the browser finds the preloaded picture under the URL the card picks.
 */
export function thumbnailImage(src: string, width = CARD_WIDTH, sizes = CARD_SIZES): { src: string; srcSet?: string; sizes?: string } {
  const freeSet = FREE_SET_VARIANT.exec(src);
  if (freeSet?.[1]) {
    const file = freeSet[1];
    return { src, srcSet: VARIANT_WIDTHS.map((w) => `${file}?w=${w} ${w}w`).join(', '), sizes };
  }
  const srcSet = variantSrcSet(src);
  return srcSet ? { src: `${src}?w=${closestWidth(width)}`, srcSet, sizes } : { src };
}
