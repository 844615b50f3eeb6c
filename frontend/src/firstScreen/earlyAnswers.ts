import { thumbnailImage } from './thumbnailUrls';

/**
 * For slow networks (Slow 3G: each request costs a 2 s round trip, 50 KB/s). Home's first answers, asked
 * for by this small entry module as soon as it runs instead of by the app once React (≈ 94 KB
 * gzipped) is in. nginx preloads both with home's HTML (`Link` header, nginx.conf.template); these
 * fetches then take the preloaded answers, so the URLs and the request shape (a plain GET, default
 * credentials, no extra header) must stay exactly as nginx names them.
 */
export const HOME_FIRST_ANSWERS = ['/api/updates/1', '/api/freephotos/1'] as const;

/** How many cards of the first screen get their picture preloaded: home's top row. */
const FIRST_ROW = 3;

/**
 * As long as the app's own reads wait (features/api/fetchJson.ts, REQUEST_TIMEOUT_MS): a hung bff
 * gets home's "taking too long" as soon as before, counted from here.
 */
const EARLY_TIMEOUT_MS = 8000;
/** An answer not taken by then is old: a later visit to home asks afresh. */
const KEEP_MS = 30_000;

/** What became of an early request: its JSON, nothing to use (an error answer, no network), or no answer in time. */
export type EarlyAnswer = { kind: 'answer'; body: unknown } | { kind: 'none' } | { kind: 'timedOut' };

const answers = new Map<string, { at: number; answer: Promise<EarlyAnswer> }>();

async function ask(url: string): Promise<EarlyAnswer> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(EARLY_TIMEOUT_MS) });
    return response.ok ? { kind: 'answer', body: await response.json() } : { kind: 'none' };
  } catch (error) {
    return error instanceof DOMException && error.name === 'TimeoutError' ? { kind: 'timedOut' } : { kind: 'none' };
  }
}

/** Starts home's first requests (on `/` only) and preloads the top row's pictures once they are in. */
export function startFirstScreen(): void {
  if (window.location.pathname !== '/') return;
  for (const url of HOME_FIRST_ANSWERS) answers.set(url, { at: performance.now(), answer: ask(url) });
  // Behind the age notice nothing is shown yet: its pictures would only slow it down.
  if (ageConfirmed()) void preloadFirstRow();
}

/**
 * The early request for `url`, once (features/api/fetchJson.ts `fetchJsonOrEarly`); `none` when
 * there was none or it is old.
 */
export async function takeEarlyAnswer(url: string): Promise<EarlyAnswer> {
  const early = answers.get(url);
  answers.delete(url);
  if (!early || performance.now() - early.at > KEEP_MS) return { kind: 'none' };
  return early.answer;
}

function ageConfirmed(): boolean {
  try {
    return window.localStorage.getItem('ageConfirmed') === 'true'; // AgeGate's flag (spec §1)
  } catch {
    return false;
  }
}

interface Thumbnailed {
  thumbnail?: string | null;
  type?: string;
}

/** The top row: the free sets strip when there is one, else the first card of each column. */
async function preloadFirstRow(): Promise<void> {
  const [updates, freeSets] = (await Promise.all(HOME_FIRST_ANSWERS.map((url) => answers.get(url)?.answer))).map((early) =>
    early?.kind === 'answer' ? early.body : undefined,
  );
  const free = Array.isArray(freeSets) ? (freeSets as Thumbnailed[]) : [];
  const feed = Array.isArray(updates) ? (updates as Thumbnailed[]) : [];
  const firstOfEach = ['photo', 'video', 'vod'].map((type) => feed.find((item) => item.type === type));
  const row = (free.length > 0 ? free : firstOfEach).slice(0, FIRST_ROW);
  for (const item of row) {
    if (!item?.thumbnail) continue;
    const image = thumbnailImage(item.thumbnail);
    const link = document.createElement('link');
    const attributes = {
      rel: 'preload',
      as: 'image',
      href: image.src,
      imagesrcset: image.srcSet,
      imagesizes: image.sizes,
      fetchpriority: 'high',
    };
    for (const [name, value] of Object.entries(attributes)) if (value) link.setAttribute(name, value);
    document.head.append(link);
  }
}
