// What the console's Stats screen costs at a site's scale. `npm run bench:stats` (env:
// BENCH_DATABASE_URL (MariaDB/MySQL, created if missing), BENCH_ITEMS (items per type, 3000),
// BENCH_ROUNDS (15)). Fills content_stats_daily with 90 days of activity for every item (photo
// sets, videos and VODs, each with a model among 300), then times each question the screen asks
// (db/src/stats/daily.ts) over 7, 30 and 90 days, beside its anchor: one plain SUM over the same
// window's rows (the least any answer reading them can cost), and prints the medians and ratios.
// Then the cost of counting one event (the upsert a play or download adds).
import { createKnex, migrateLatest, searchText } from '@media-site/db';
import { countStat, statDay, statsByItem, statsByModel, statsPerDay, statTotals, type StatsFilter } from '@media-site/db/stats';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/bench_stats';
const ITEMS = Number(process.env.BENCH_ITEMS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const DAYS = 90;
const MODELS = 300;
const TYPES = { photo: 'photosets', video: 'videos', vod: 'vods' } as const;

async function ensureDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/';
  const admin = createKnex(u.toString());
  await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 2; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = process.hrtime.bigint();
    await fn();
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(ms);
}

async function main(): Promise<void> {
  await ensureDatabase(DATABASE_URL);
  const knex = createKnex(DATABASE_URL);
  await migrateLatest(knex);
  const today = statDay(Date.now());
  await knex('models').insert(Array.from({ length: MODELS }, (_, i) => ({ id: i + 1, modelname: `Model B${i + 1}`, initial: 'M' })));
  for (const table of Object.values(TYPES)) {
    const rows = Array.from({ length: ITEMS }, (_, i) => ({
      id: i + 1,
      path: `${table}-${i + 1}`,
      updatename: `Item ${i + 1}`,
      modelname: `Model B${(i % MODELS) + 1}`,
      model_id: (i % MODELS) + 1,
      datetoupload: '2024-01-01',
      search_text: searchText(`Item ${i + 1}`, `Model B${(i % MODELS) + 1}`),
      ...(table === 'photosets' ? {} : { prename: `item ${i + 1}` }),
      ...(table === 'vods' ? { format: 0, price: '9.99' } : {}),
    }));
    for (let i = 0; i < rows.length; i += 1000) await knex(table).insert(rows.slice(i, i + 1000));
  }
  let seed = 1;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const stats: object[] = [];
  for (let day = today - DAYS + 1; day <= today; day++) {
    for (const type of Object.keys(TYPES)) {
      for (let id = 1; id <= ITEMS; id++) {
        const plays = Math.floor(rnd() * 20);
        stats.push({
          day,
          content_type: type,
          content_id: id,
          plays,
          completions: plays >> 1,
          downloads: plays >> 2,
          saves: plays >> 3,
          sales: type === 'vod' ? plays >> 4 : 0,
          revenue_cents: type === 'vod' ? (plays >> 4) * 999 : 0,
        });
      }
    }
  }
  for (let i = 0; i < stats.length; i += 2000) await knex('content_stats_daily').insert(stats.slice(i, i + 2000));
  console.log(
    `console Stats on ${DATABASE_URL.split(':')[0]}: ${ITEMS} items per type, ${MODELS} models, ${stats.length} daily rows (${DAYS} days), median of ${ROUNDS}`,
  );
  for (const days of [7, 30, 90]) {
    const f: StatsFilter = { fromDay: today - days + 1, toDay: today };
    const anchor = await timed(() => knex('content_stats_daily').whereBetween('day', [f.fromDay, f.toDay]).sum({ n: 'plays' }));
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['totals', () => statTotals(knex, f)],
      ['per day', () => statsPerDay(knex, f)],
      ['items by plays, page 1', () => statsByItem(knex, f, 'plays', 51, 0)],
      ['models by revenue', () => statsByModel(knex, f, 'revenue', 51, 0)],
      ["one model's items", () => statsByItem(knex, { ...f, modelId: 7 }, 'plays', 51, 0)],
      ["one item's days", () => statsPerDay(knex, { ...f, type: 'vod', itemId: 42 })],
    ];
    console.log(`  last ${days} days: anchor (SUM over the window's rows) ${anchor.toFixed(1)} ms`);
    for (const [name, fn] of cases) {
      const ms = await timed(fn);
      console.log(`    ${name.padEnd(24)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / anchor).toFixed(2)}× the anchor`);
    }
  }
  const upsert = await timed(async () => {
    for (let i = 0; i < 100; i++) await countStat(knex, { type: 'video', id: 1 + (i % ITEMS) }, 'plays', Date.now());
  });
  console.log(`  counting one event (an upsert): ${(upsert / 100).toFixed(3)} ms`);
  await knex.destroy();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
