import sharp from 'sharp';
import { hashString } from './prng';
import { scene, type Scene, type SceneSpec } from './scene';

export interface Picture extends SceneSpec {
  /** A small line in the lower left corner (the set and the photo's number); none on covers and frames. */
  caption?: string;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Without installed fonts the caption may not show; the picture is the same otherwise. */
function captionSvg(text: string, w: number, h: number): string {
  const size = Math.round(Math.min(w, h) / 40);
  const x = Math.round(w * 0.025);
  const y = Math.round(h - w * 0.025);
  const line = (dx: number, fill: string) =>
    `<text x="${x + dx}" y="${y + dx}" font-family="DejaVu Sans, sans-serif" font-size="${size}" fill="${fill}">${escapeXml(text)}</text>`;
  return line(1, 'rgba(0,0,0,0.45)') + line(0, 'rgba(255,255,255,0.8)');
}

const vignettes = new Map<string, Float32Array>();

/** How much of each pixel a lens keeps: all of it in the middle, about half in the corners. */
function vignette(w: number, h: number): Float32Array {
  const key = `${w}x${h}`;
  let map = vignettes.get(key);
  if (!map) {
    map = new Float32Array(w * h);
    for (let y = 0, p = 0; y < h; y++) {
      const dy = (y / h - 0.5) * 2;
      for (let x = 0; x < w; x++, p++) {
        const dx = (x / w - 0.5) * 2;
        const edge = Math.max(0, (Math.sqrt((dx * dx + dy * dy) / 2) - 0.45) / 0.55);
        map[p] = 1 - 0.55 * edge * edge;
      }
    }
    vignettes.set(key, map);
  }
  return map;
}

/**
 * The photographic finish, on the raw pixels in one pass: the sun's halo and its broad light over
 * everything (each falling off as 1 / (1 + d²), no square root per pixel), the vignette, and grain.
 */
function finish(pixels: Buffer, channels: number, w: number, h: number, light: Scene['light'], seed: number): Buffer {
  const out = Buffer.allocUnsafe(w * h * 3);
  const clamped = new Uint8ClampedArray(out.buffer, out.byteOffset, out.length);
  const keep = vignette(w, h);
  const reach = 1 / (0.2 * Math.max(w, h)) ** 2;
  const halo = 1 / (light.radius * 1.6) ** 2;
  const [lr, lg, lb] = light.colour;
  let state = seed | 1;
  for (let y = 0, p = 0, i = 0, o = 0; y < h; y++) {
    const dy2 = (y - light.y) ** 2;
    for (let x = 0; x < w; x++, p++, i += channels) {
      const dx = x - light.x;
      const d2 = dx * dx + dy2;
      const g = Math.min(0.95, light.strength / (1 + d2 * reach) + 0.6 / (1 + d2 * halo));
      const v = keep[p] ?? 1;
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      const grain = (state & 15) - 7.5;
      const r = pixels[i] ?? 0;
      const gr = pixels[i + 1] ?? 0;
      const b = pixels[i + 2] ?? 0;
      clamped[o++] = (r + (lr - r) * g) * v + grain;
      clamped[o++] = (gr + (lg - gr) * g) * v + grain;
      clamped[o++] = (b + (lb - b) * g) * v + grain;
    }
  }
  return out;
}

/**
 * A generated landscape photo as JPEG, the same for the same picture. Huffman optimisation is off:
 * it costs about a third of the encode time, which matters more here than 25% larger files.
 */
export async function renderPicture(p: Picture): Promise<Buffer> {
  const { width: w, height: h } = p;
  const drawn = scene(p, p.caption ? captionSvg(p.caption, w, h) : '');
  const { data, info } = await sharp(Buffer.from(drawn.svg)).raw().toBuffer({ resolveWithObject: true });
  const pixels = finish(data, info.channels, w, h, drawn.light, hashString(`${p.key}#${p.view}`));
  return sharp(pixels, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 80, optimiseCoding: false })
    .toBuffer();
}

/** A smaller copy of an already-encoded image (thumbnails from the full picture). */
export function resizeJpeg(input: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(input).resize(width, height, { fit: 'cover' }).jpeg({ quality: 78, optimiseCoding: false }).toBuffer();
}
