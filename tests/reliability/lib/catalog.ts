import type { Req } from './http';

interface Listed {
  path?: string;
  thumbnail?: string;
  modelname?: string;
}

export interface BrowseMix {
  api: string[];
  thumbnails: string[];
  /** Public originals, fetched with a Range header. */
  files: string[];
}

async function json<T>(base: string, path: string): Promise<T> {
  const res = await fetch(new URL(path, base));
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
}

/** What a visitor browses on the seeded demo catalog, read from the API itself. */
export async function discoverBrowsing(base: string): Promise<BrowseMix> {
  const updates = await json<Listed[]>(base, '/api/updates/1');
  const photos = await json<Listed[]>(base, '/api/photos/1');
  const models = [...new Set(updates.map((u) => u.modelname).filter((m): m is string => !!m))].slice(0, 8);
  const api = [
    '/api/updates/1',
    '/api/updates/2',
    ...[1, 2, 3].flatMap((p) => [`/api/photos/${p}`, `/api/photos-by-date/${p}`, `/api/videos/${p}`, `/api/videos-by-date/${p}`]),
    '/api/vod/1',
    ...['a', 'model', 'set', 'zz', 'b1'].map((t) => `/api/search/${t}`),
    ...models.map((m) => `/api/modelname/${encodeURIComponent(m)}`),
    ...[...new Set(models.map((m) => m[0]?.toUpperCase() ?? 'A'))].map((l) => `/api/models/${l}`),
    ...photos.slice(0, 4).map((p) => `/api/thumbnails/${p.path}`),
  ];
  const widths = [160, 320, 480, 640];
  const thumbnails = updates
    .map((u) => u.thumbnail)
    .filter((t): t is string => !!t)
    .slice(0, 12)
    .flatMap((t, i) => [t, `${t}?w=${widths[i % widths.length]}`]);
  const files: string[] = [];
  for (const p of photos.slice(0, 3)) {
    const names = await json<string[]>(base, `/api/freethumbnails/${p.path}`).catch(() => []);
    for (const name of names.slice(0, 2)) files.push(`/members/freephotos/${p.path}/${name}`);
  }
  return { api, thumbnails, files };
}

const RANGES = ['bytes=0-1023', 'bytes=100-', 'bytes=-512', 'bytes=0-0'];

/** A deterministic mix: mostly API pages, a third thumbnails, one in 40 a range download. */
export function browseRequest(mix: BrowseMix, n: number): Req {
  const pick = <T>(list: T[], k: number): T => list[k % list.length] as T;
  if (n % 40 === 39 && mix.files.length) return { path: pick(mix.files, n), headers: { Range: pick(RANGES, n) } };
  if (n % 3 === 2 && mix.thumbnails.length)
    return { path: pick(mix.thumbnails, n * 7), headers: { Accept: n % 2 ? 'image/webp,*/*' : 'image/*' } };
  return { path: pick(mix.api, n * 13) };
}
