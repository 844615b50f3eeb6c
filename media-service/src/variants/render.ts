import sharp from 'sharp';
import type { VariantFormat } from './format';

// Only the decoders our media uses: SVG, PDF, TIFF and friends are attack surface we do not need.
sharp.block({ operation: ['VipsForeignLoad'] });
sharp.unblock({
  operation: ['VipsForeignLoadJpeg', 'VipsForeignLoadPng', 'VipsForeignLoadWebp', 'VipsForeignLoadHeif', 'VipsForeignLoadGif'],
});
// Each variant is rendered once (single-flight, then the disk cache): libvips' operation cache
// (up to 50 MB by default) would only hold memory that is never reused.
sharp.cache(false);

export interface RenderOptions {
  width: number;
  format: VariantFormat;
  maxPixels: number;
}

/**
 * Strict decode (`failOn: 'warning'` refuses truncated or corrupt files), a pixel limit far below
 * sharp's default against decompression bombs, EXIF orientation applied, metadata stripped (sharp's
 * default), never enlarged.
 */
export async function renderVariant(source: string | Buffer, { width, format, maxPixels }: RenderOptions): Promise<Buffer> {
  let image = sharp(source, { limitInputPixels: maxPixels, failOn: 'warning', sequentialRead: true })
    .rotate()
    .resize({ width, withoutEnlargement: true });
  if (format === 'avif') image = image.avif({ quality: 55, effort: 2 });
  else if (format === 'webp') image = image.webp({ quality: 78 });
  else image = image.flatten({ background: '#ffffff' }).jpeg({ quality: 80 });
  return image.toBuffer();
}
