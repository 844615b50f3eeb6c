import { createKnex, databaseUrlFromEnv, migrateLatest } from '@media-site/db';
import { formatSummary } from '../demo';
import { parseFlags, runCli, UsageError } from '../seed/args';
import { seedScale } from '../seed/scale';

const MAX_ROWS = 5_000_000;
const usage = `usage: npm run seed:scale -- --rows N

Replaces the catalog with N photo sets, N videos, N VODs and N/10 models (rows only, no media
files), for benchmarks. Deterministic: the same N gives the same rows.
  --rows N   rows per content type, 1..${MAX_ROWS} (default 100000)
Environment: DATABASE_URL (default: embedded SQLite).`;

await runCli(usage, async () => {
  const flags = parseFlags(process.argv.slice(2), { rows: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
  if (flags.help) {
    console.log(usage);
    return;
  }
  const rowsText = flags.rows ?? '100000';
  const rows = Number(rowsText);
  if (!/^\d+$/.test(rowsText) || rows < 1 || rows > MAX_ROWS)
    throw new UsageError(`--rows must be an integer from 1 to ${MAX_ROWS} (got ${rowsText})`);

  const knex = createKnex(databaseUrlFromEnv(), { acquireTimeoutMs: 10_000 });
  try {
    await migrateLatest(knex);
    const started = performance.now();
    const elapsed = () => ((performance.now() - started) / 1000).toFixed(1);
    const summary = await seedScale(knex, rows, (msg) => console.log(`${elapsed()} s  ${msg}`));
    console.log(`scale catalog seeded in ${elapsed()} s: ${formatSummary(summary)}`);
  } finally {
    await knex.destroy();
  }
});
