import type { Location } from 'react-router-dom';

// What brings a visitor back to where they were on Back/Forward or a reload: the scroll position and
// the pages a listing had loaded, kept per history entry. A new visit is a new entry and starts fresh.
// Scroll positions and page counts live in sessionStorage (they survive a reload); the loaded rows live
// in this module only, so Back shows them at once without asking the server again.
const STORAGE_KEY = 'historyMemory';
const MAX_ENTRIES = 60;

interface Stored {
  scroll: Record<string, number>;
  pages: Record<string, number>;
}

let stored: Stored | null = null;
const loadedPages = new Map<string, unknown[][]>();

// Spec §2: /vod saves its position "on leaving and restores it on return", however the visitor
// returns (the nav link too), so it has one memory for all its entries.
const SAME_ON_EVERY_VISIT = new Set(['/vod']);

export function restoresOnEveryVisit(pathname: string): boolean {
  return SAME_ON_EVERY_VISIT.has(pathname);
}

/** One history entry: the router's key plus the URL, since entries the router did not create share the key "default". */
export function entryKey(location: Pick<Location, 'key' | 'pathname' | 'search'>): string {
  if (restoresOnEveryVisit(location.pathname)) return `every-visit:${location.pathname}`;
  return `${location.key}:${location.pathname}${location.search}`;
}

/**
 * Whether this document was opened as a new visit (a link from another site, the address typed), not
 * by a reload or Back/Forward (Navigation Timing; unknown counts as not).
 */
function openedAsNewVisit(): boolean {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') return false;
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.type === 'navigate';
}

/** A document's first entry has the router key "default", like the first entry of every earlier document in this tab. */
const DOCUMENT_ENTRY = /^default:/;

/** Drops the positions and pages kept for an earlier document's first entry: a new visit starts fresh. */
function withoutDocumentEntries(record: Record<string, number> | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(record ?? {}).filter(([key]) => !DOCUMENT_ENTRY.test(key)));
}

function read(): Stored {
  if (stored) return stored;
  stored = { scroll: {}, pages: {} };
  try {
    const value = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Stored> | null;
    if (value && typeof value === 'object') {
      stored = openedAsNewVisit()
        ? { scroll: withoutDocumentEntries(value.scroll), pages: withoutDocumentEntries(value.pages) }
        : { scroll: { ...value.scroll }, pages: { ...value.pages } };
    }
  } catch {
    // Unreadable or disabled storage: nothing to restore.
  }
  return stored;
}

// Objects keep insertion order: dropping the first keys drops the oldest entries.
function trim(record: Record<string, number>): void {
  const keys = Object.keys(record);
  for (const key of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete record[key];
}

function setNumber(record: Record<string, number>, key: string, value: number): void {
  delete record[key];
  record[key] = value;
  trim(record);
}

/** Writes the positions to sessionStorage; called on navigation and when the page is hidden. */
export function persistHistoryMemory(): void {
  if (!stored) return;
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // Storage full or disabled: Back then simply starts at the top.
  }
}

export function rememberScroll(entry: string, y: number): void {
  setNumber(read().scroll, entry, Math.max(0, Math.round(y)));
}

export function rememberedScroll(entry: string): number | null {
  const y = read().scroll[entry];
  return typeof y === 'number' && Number.isFinite(y) && y > 0 ? y : null;
}

export function rememberPages(listing: string, pages: unknown[][]): void {
  loadedPages.delete(listing);
  loadedPages.set(listing, pages);
  for (const key of [...loadedPages.keys()].slice(0, Math.max(0, loadedPages.size - MAX_ENTRIES / 3))) loadedPages.delete(key);
  setNumber(read().pages, listing, pages.length);
  persistHistoryMemory();
}

/** The rows a listing had loaded in this history entry, or how many pages it had before a reload. */
export function rememberedPages<T>(listing: string): { pages?: T[][]; count?: number } {
  const pages = loadedPages.get(listing) as T[][] | undefined;
  if (pages?.length) return { pages };
  const count = read().pages[listing];
  return typeof count === 'number' && Number.isInteger(count) && count > 1 && count <= 500 ? { count } : {};
}

/** For tests: forget everything, as a new tab would. */
export function resetHistoryMemory(): void {
  stored = null;
  loadedPages.clear();
}
