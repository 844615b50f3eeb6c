import { createPrng, hashString, type Prng } from './prng';

/**
 * A generated landscape as SVG: sky, sun or moon, layered ridges that fade into haze with distance,
 * a lake or a meadow. Linear gradients and paths only: librsvg draws radial gradients and SVG
 * filters (blur, turbulence) slowly at these sizes, so the sun's glow, the vignette and the grain
 * are added to the pixels afterwards (image.ts).
 */
export interface SceneSpec {
  width: number;
  height: number;
  /** The family: every image with the same key shares a light, palette and kind of land. */
  key: string;
  /** Which view of the family (the image's number in its set). */
  view: number;
}

export type Rgb = readonly [number, number, number];

export interface Scene {
  svg: string;
  /** Where the sun or moon is and its light's colour, for the broad glow added to the pixels. */
  light: { x: number; y: number; colour: Rgb; strength: number; radius: number };
}

interface Light {
  /** Zenith, middle and horizon of the sky. */
  sky: readonly [Rgb, Rgb, Rgb];
  /** The land nearest the viewer; farther ridges blend from it towards the horizon colour. */
  land: Rgb;
  sun: Rgb;
  /** 0 = at the horizon, 1 = high in the sky. */
  sunHeight: number;
  night: boolean;
}

function hsl(h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [0, 1, 2].map((i) => Math.round(a[i]! + (b[i]! - a[i]!) * t)) as unknown as Rgb;
const css = (c: Rgb, alpha = 1): string => (alpha === 1 ? `rgb(${c.join(',')})` : `rgba(${c.join(',')},${alpha.toFixed(3)})`);
const fixed = (n: number): string => n.toFixed(1);

/** Times of day, each a function of a hue shift so that two sets in the same light still differ. */
const LIGHTS: ReadonlyArray<(shift: number) => Light> = [
  (s) => ({
    sky: [hsl(225 + s, 0.45, 0.3), hsl(285 + s, 0.3, 0.55), hsl(32 + s / 2, 0.85, 0.72)],
    land: hsl(250 + s, 0.3, 0.16),
    sun: hsl(40, 1, 0.85),
    sunHeight: 0.08,
    night: false,
  }),
  (s) => ({
    sky: [hsl(212 + s, 0.65, 0.42), hsl(205 + s, 0.55, 0.62), hsl(195 + s, 0.45, 0.84)],
    land: hsl(150 + s * 2, 0.35, 0.18),
    sun: hsl(50, 1, 0.94),
    sunHeight: 0.75,
    night: false,
  }),
  (s) => ({
    sky: [hsl(248 + s, 0.42, 0.2), hsl(330 + s, 0.45, 0.45), hsl(24 + s / 2, 0.9, 0.6)],
    land: hsl(275 + s, 0.35, 0.12),
    sun: hsl(30, 1, 0.75),
    sunHeight: 0.12,
    night: false,
  }),
  (s) => ({
    sky: [hsl(228 + s, 0.55, 0.07), hsl(222 + s, 0.45, 0.16), hsl(210 + s, 0.4, 0.3)],
    land: hsl(225 + s, 0.35, 0.07),
    sun: hsl(55, 0.3, 0.92),
    sunHeight: 0.6,
    night: true,
  }),
  (s) => ({
    sky: [hsl(205 + s, 0.18, 0.62), hsl(200 + s, 0.15, 0.76), hsl(40 + s, 0.2, 0.88)],
    land: hsl(180 + s * 2, 0.2, 0.22),
    sun: hsl(45, 0.6, 0.95),
    sunHeight: 0.45,
    night: false,
  }),
  (s) => ({
    sky: [hsl(195 + s, 0.5, 0.35), hsl(170 + s, 0.35, 0.6), hsl(55 + s, 0.6, 0.8)],
    land: hsl(120 + s * 2, 0.4, 0.15),
    sun: hsl(48, 1, 0.88),
    sunHeight: 0.3,
    night: false,
  }),
];

/** A ridge line by midpoint displacement: `2^depth + 1` heights in [-1, 1]. */
function ridge(prng: Prng, depth: number, roughness: number): number[] {
  const n = 2 ** depth;
  const h = new Array<number>(n + 1).fill(0);
  h[0] = prng.next() * 2 - 1;
  h[n] = prng.next() * 2 - 1;
  let spread = 1;
  for (let step = n; step > 1; step /= 2) {
    for (let i = step / 2; i < n; i += step) h[i] = (h[i - step / 2]! + h[i + step / 2]!) / 2 + (prng.next() * 2 - 1) * spread;
    spread *= roughness;
  }
  const max = Math.max(...h.map(Math.abs)) || 1;
  return h.map((v) => v / max);
}

interface Layer {
  path: string;
  top: number;
  colour: Rgb;
}

/** The ridges from far to near: the far ones high and pale, the near ones low, dark and rounder. */
function ridges(
  prng: Prng,
  size: { w: number; h: number; bottom: number },
  horizon: number,
  ground: number,
  light: Light,
  count: number,
): Layer[] {
  const { w, h, bottom } = size;
  const haze = mix(mix(light.sky[2], light.sky[1], 0.5), [0, 0, 0], 0.18);
  const layers: Layer[] = [];
  for (let k = 0; k < count; k++) {
    const near = k / Math.max(1, count - 1);
    const base = horizon + (ground - horizon) * near * 0.9;
    const amplitude = h * (0.26 - near * 0.18) * (0.7 + prng.next() * 0.6);
    // Far ridges jagged like mountains, near ones rounded like hills.
    const line = ridge(prng, 6, 0.62 - near * 0.2);
    const points = line.map((v, i) => `${fixed((i / (line.length - 1)) * w)},${fixed(base - amplitude * (0.55 + v * 0.45))}`);
    const top = Math.min(...line.map((v) => base - amplitude * (0.55 + v * 0.45)));
    // Atmospheric perspective: the farther a ridge, the more it takes of the haze, a shade below the sky behind it.
    const colour = mix(light.land, haze, (1 - near) ** 1.2 * 0.85);
    layers.push({ path: `M0,${fixed(bottom)} L${points.join(' L')} L${w},${fixed(bottom)} Z`, top, colour });
  }
  return layers;
}

function trees(prng: Prng, w: number, h: number, colour: Rgb): string {
  const count = prng.int(8, 22);
  const shapes: string[] = [];
  for (let i = 0; i < count; i++) {
    const x = prng.next() * w;
    const size = h * (0.05 + prng.next() * 0.09);
    const y = h * (0.97 + prng.next() * 0.05);
    shapes.push(`M${fixed(x)},${fixed(y - size)} L${fixed(x + size * 0.22)},${fixed(y)} L${fixed(x - size * 0.22)},${fixed(y)} Z`);
  }
  return `<path d="${shapes.join(' ')}" fill="${css(mix(colour, [0, 0, 0], 0.35))}"/>`;
}

function stars(prng: Prng, w: number, horizon: number): string {
  const dots: string[] = [];
  for (let i = 0; i < 70; i++) {
    const r = 0.6 + prng.next() * 1.4;
    dots.push(
      `<circle cx="${fixed(prng.next() * w)}" cy="${fixed(prng.next() * horizon * 0.9)}" r="${r.toFixed(2)}" fill="rgba(255,255,240,${(0.35 + prng.next() * 0.6).toFixed(2)})"/>`,
    );
  }
  return dots.join('');
}

function clouds(prng: Prng, w: number, horizon: number, tint: Rgb): string {
  const shapes: string[] = [];
  for (let i = prng.int(2, 6); i > 0; i--) {
    const cy = horizon * (0.15 + prng.next() * 0.6);
    shapes.push(
      `<ellipse cx="${fixed(prng.next() * w)}" cy="${fixed(cy)}" rx="${fixed(w * (0.12 + prng.next() * 0.2))}" ry="${fixed(horizon * (0.025 + prng.next() * 0.04))}" fill="url(#cloud)" opacity="${(0.35 + prng.next() * 0.45).toFixed(2)}"/>`,
    );
  }
  // A vertical fade, not a radial one: librsvg draws linear gradients several times faster.
  return `<linearGradient id="cloud" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${css(tint, 0)}"/><stop offset="0.5" stop-color="${css(tint, 0.8)}"/><stop offset="1" stop-color="${css(tint, 0)}"/></linearGradient>${shapes.join('')}`;
}

/** The scene, the same for the same spec; `overlay` (SVG) is drawn on top. */
export function scene(spec: SceneSpec, overlay = ''): Scene {
  const { width: w, height: h } = spec;
  const family = createPrng(hashString(spec.key));
  const light = LIGHTS[family.int(0, LIGHTS.length - 1)]!(family.int(-18, 18));
  const lake = family.next() < 0.4;
  const forest = !lake && family.next() < 0.6;
  const layerCount = family.int(3, 5);
  // The view varies the camera within the family: horizon, sun position, the ridges themselves.
  const prng = createPrng(hashString(`${spec.key}#${spec.view}`));
  const horizon = h * (0.42 + prng.next() * 0.16);
  const ground = lake ? horizon + h * 0.08 : h * 0.92;
  const sunX = w * (0.15 + prng.next() * 0.7);
  const sunY = horizon - horizon * 0.85 * light.sunHeight * (0.8 + prng.next() * 0.4);
  const sunR = Math.min(w, h) * (light.night ? 0.035 : 0.045 + prng.next() * 0.02);
  const glow = mix(light.sun, light.sky[2], 0.3);
  const shore = horizon + h * 0.05;
  const layers = ridges(prng, { w, h, bottom: lake ? shore : h }, horizon, ground, light, layerCount);
  const haze = light.sky[2];

  const defs = `<defs>
<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${css(light.sky[0])}"/><stop offset="0.55" stop-color="${css(light.sky[1])}"/><stop offset="1" stop-color="${css(light.sky[2])}"/></linearGradient>
<linearGradient id="mist" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${css(haze, 0)}"/><stop offset="0.6" stop-color="${css(haze, 0.3)}"/><stop offset="1" stop-color="${css(haze, 0)}"/></linearGradient>
<linearGradient id="water" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${css(mix(light.sky[2], light.land, 0.25), 0.55)}"/><stop offset="1" stop-color="${css(mix(light.sky[0], light.land, 0.5), 0.95)}"/></linearGradient>
<clipPath id="below"><rect y="${fixed(shore)}" width="${w}" height="${fixed(h - shore)}"/></clipPath>
</defs>`;

  const parts: string[] = [defs, `<rect width="${w}" height="${h}" fill="url(#sky)"/>`];
  if (light.night) parts.push(stars(prng, w, horizon));
  parts.push(`<circle cx="${fixed(sunX)}" cy="${fixed(sunY)}" r="${fixed(sunR)}" fill="${css(light.sun)}"/>`);
  if (!light.night) parts.push(clouds(prng, w, horizon, mix(light.sun, light.sky[1], 0.4)));

  const landscape: string[] = [];
  layers.forEach((layer, k) => {
    landscape.push(`<path d="${layer.path}" fill="${css(layer.colour)}"/>`);
    // Mist settles in front of every ridge but the nearest, so the valleys read as distance.
    if (k < layers.length - 1) {
      const top = layer.top + (horizon - layer.top) * 0.6;
      landscape.push(`<rect y="${fixed(top)}" width="${w}" height="${fixed(h * 0.14)}" fill="url(#mist)"/>`);
    }
  });
  if (lake) {
    // The ridges again, mirrored in the water below the shore line, under a darker water tint.
    parts.push(`<g id="land">${landscape.join('')}</g>`);
    parts.push(
      `<g clip-path="url(#below)">` +
        `<rect y="${fixed(shore)}" width="${w}" height="${fixed(h - shore)}" fill="url(#sky)"/>` +
        `<use href="#land" transform="matrix(1,0,0,-1,0,${fixed(shore * 2)})" opacity="0.55"/>` +
        `<rect y="${fixed(shore)}" width="${w}" height="${fixed(h - shore)}" fill="url(#water)"/></g>`,
    );
    const ripples: string[] = [];
    for (let i = 0; i < 14; i++) {
      const y = shore + (h - shore) * prng.next() ** 0.7;
      const x = prng.next() * w;
      ripples.push(`M${fixed(x)},${fixed(y)} h${fixed(w * (0.03 + prng.next() * 0.12))}`);
    }
    parts.push(`<path d="${ripples.join(' ')}" stroke="${css(light.sun, 0.18)}" stroke-width="${fixed(Math.max(1, h / 500))}"/>`);
  } else {
    parts.push(...landscape);
    if (forest) parts.push(trees(prng, w, h, light.land));
  }
  parts.push(overlay);
  return {
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">\n${parts.join('\n')}\n</svg>`,
    light: { x: sunX, y: sunY, colour: glow, strength: light.night ? 0.25 : 0.45, radius: sunR },
  };
}
