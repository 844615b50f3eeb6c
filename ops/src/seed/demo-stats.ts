import type { DemoCatalog } from './catalog';
import { createPrng } from './prng';

// The console's Stats screen for the demo (content_stats_daily, migration 032): 30 days of
// generated, neutral activity before today, so the screen can be judged on a fresh `npm start`.
// Today starts empty: what a tester does today shows on its own in the per-day table. Each item
// has a popularity (a few items are far more popular than most, as on a real site) and counts
// only from its release day; weekends are busier. Photo sets are downloaded and saved, not played.

const DAY_MS = 86_400_000;
export const DEMO_STATS_DAYS = 30;

export interface DemoStatRow {
  day: number;
  content_type: 'photo' | 'video' | 'vod';
  content_id: number;
  plays: number;
  completions: number;
  downloads: number;
  saves: number;
  sales: number;
  revenue_cents: number;
}

interface Item {
  type: DemoStatRow['content_type'];
  id: number;
  released: string;
  priceCents: number;
}

/** The rows for the DEMO_STATS_DAYS days before `now`'s UTC day; the same catalog and day give the same rows. */
export function demoStats(catalog: DemoCatalog, now: number): DemoStatRow[] {
  const prng = createPrng(0x57a75);
  const today = Math.floor(now / DAY_MS);
  const items: Item[] = [
    ...catalog.photosets.map((r) => ({ type: 'photo' as const, id: r.id, released: r.datetoupload, priceCents: 0 })),
    ...catalog.videos.map((r) => ({ type: 'video' as const, id: r.id, released: r.datetoupload, priceCents: 0 })),
    ...catalog.vods.map((r) => ({ type: 'vod' as const, id: r.id, released: r.datetoupload, priceCents: Math.round(r.price * 100) })),
  ];
  // Popularity from 0.3 to about 20 plays a day, most items near the bottom.
  const popularity = new Map(items.map((item) => [`${item.type} ${item.id}`, 0.3 * Math.exp(prng.next() * 4.2)]));
  const rows: DemoStatRow[] = [];
  for (let day = today - DEMO_STATS_DAYS; day < today; day++) {
    const date = new Date(day * DAY_MS);
    const text = date.toISOString().slice(0, 10);
    const busy = date.getUTCDay() === 0 || date.getUTCDay() === 6 ? 1.3 : 1;
    for (const item of items) {
      if (item.released > text) continue;
      const base = (popularity.get(`${item.type} ${item.id}`) ?? 1) * busy * (0.5 + prng.next());
      const some = (share: number) => Math.floor(base * share * (0.5 + prng.next()) + prng.next());
      const played = item.type === 'photo' ? 0 : some(1);
      const row: DemoStatRow = {
        day,
        content_type: item.type,
        content_id: item.id,
        plays: played,
        completions: Math.min(played, some(0.55)),
        downloads: some(item.type === 'photo' ? 0.6 : 0.2),
        saves: some(0.06),
        sales: item.type === 'vod' ? some(0.05) : 0,
        revenue_cents: 0,
      };
      row.revenue_cents = row.sales * item.priceCents;
      if (row.plays + row.downloads + row.saves + row.sales > 0) rows.push(row);
    }
  }
  return rows;
}
