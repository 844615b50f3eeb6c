export const VARIANT_WIDTHS = [160, 320, 480, 640, 960, 1280] as const;

export type VariantFormat = 'avif' | 'webp' | 'jpeg';

export const VARIANT_TYPES: Record<VariantFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};

/** Returns the width, or null when `w` is not one of the fixed widths. */
export function parseWidth(value: string): number | null {
  const width = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  return (VARIANT_WIDTHS as readonly number[]).includes(width) ? width : null;
}

function accepted(accept: string, type: string): boolean {
  return accept.split(',').some((item) => {
    const [mediaType = '', ...params] = item.split(';').map((p) => p.trim().toLowerCase());
    if (mediaType !== type) return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Browsers name AVIF and WebP explicitly when they decode them; everything else gets JPEG. */
export function negotiateFormat(accept: string | undefined): VariantFormat {
  if (!accept) return 'jpeg';
  if (accepted(accept, 'image/avif')) return 'avif';
  if (accepted(accept, 'image/webp')) return 'webp';
  return 'jpeg';
}
