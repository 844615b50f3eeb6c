import sharp from 'sharp';
import { hashString } from './prng';

export interface Placeholder {
  width: number;
  height: number;
  /** Seeds the background colour, so one set's images share a family of colours. */
  colourKey: string;
  /** Small variation on the colour (image number within a set). */
  shade?: number;
  title: string;
  subtitle?: string;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

export function placeholderColour(key: string, shade = 0): string {
  const hash = hashString(key);
  const [r, g, b] = hslToRgb(hash % 360, 0.45 + ((hash >>> 9) % 20) / 100, 0.32 + ((shade * 7) % 24) / 100);
  return `rgb(${r},${g},${b})`;
}

/**
 * One SVG (background, frame and text) rasterised by sharp. Without installed fonts the text may
 * not show; the image is still valid, which is all the demo needs. Huffman optimisation is off:
 * it costs about a third of the encode time, which matters more here than 25% larger files.
 */
export async function renderPlaceholder(p: Placeholder): Promise<Buffer> {
  const { width: w, height: h } = p;
  const big = Math.round(h / 9);
  const small = Math.round(h / 18);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
<rect width="100%" height="100%" fill="${placeholderColour(p.colourKey, p.shade)}"/>
<rect x="${w * 0.04}" y="${h * 0.04}" width="${w * 0.92}" height="${h * 0.92}" fill="none" stroke="rgba(255,255,255,0.35)" stroke-width="${Math.max(2, w / 200)}"/>
<text x="50%" y="48%" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="${big}" fill="#fff">${escapeXml(p.title)}</text>
${p.subtitle ? `<text x="50%" y="${48 + 14}%" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="${small}" fill="rgba(255,255,255,0.85)">${escapeXml(p.subtitle)}</text>` : ''}
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80, optimiseCoding: false }).toBuffer();
}

/** A smaller copy of an already-encoded image (thumbnails from the full picture). */
export function resizeJpeg(input: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(input).resize(width, height, { fit: 'cover' }).jpeg({ quality: 78, optimiseCoding: false }).toBuffer();
}
