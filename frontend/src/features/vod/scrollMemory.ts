// What /vod needs to come back where the visitor left it: how many pages were loaded and how far
// down the window was.
export const VOD_SCROLL_KEY = 'vodScroll';

export interface VodScroll {
  pages: number;
  y: number;
}

export function readVodScroll(): VodScroll | null {
  try {
    const raw = window.sessionStorage.getItem(VOD_SCROLL_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<VodScroll>;
    const pages = Number(value.pages);
    const y = Number(value.y);
    if (!Number.isInteger(pages) || pages < 1 || pages > 500 || !Number.isFinite(y) || y < 0) return null;
    return { pages, y };
  } catch {
    return null;
  }
}

export function saveVodScroll(scroll: VodScroll): void {
  try {
    window.sessionStorage.setItem(VOD_SCROLL_KEY, JSON.stringify(scroll));
  } catch {
    // Storage full or disabled: the list simply starts at the top next time.
  }
}
