import { createKnex, databaseUrlFromEnv, mediaRootFromEnv, migrateLatest } from '@media-site/db';
import { formatSummary, ensureDemo } from '../demo';
import { parseFlags, runCli } from '../seed/args';
import { seedDemoCatalog } from '../seed/demo-rows';
import { writeMediaTree } from '../seed/media';

const usage = `usage: npm run seed [-- --reset]

Seeds the demo catalog (when the catalog is empty) and writes its media tree under MEDIA_ROOT.
  --reset   empty the catalog tables first and seed the demo rows again
Environment: DATABASE_URL (default: embedded SQLite), MEDIA_ROOT (default: .data/media).
Refused with NODE_ENV=production.`;

await runCli(usage, async () => {
  const flags = parseFlags(process.argv.slice(2), { reset: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (flags.help) {
    console.log(usage);
    return;
  }
  // Placeholder content on a live site is a mistake however NODE_ENV is spelled; compose's demo
  // shape runs this with NODE_ENV=development.
  if (process.env.NODE_ENV?.trim().toLowerCase() === 'production') {
    throw new Error('the demo seed is for local use and evaluation: refused with NODE_ENV=production');
  }
  const knex = createKnex(databaseUrlFromEnv());
  const mediaRoot = mediaRootFromEnv();
  try {
    if (flags.reset) {
      await migrateLatest(knex);
      console.log(`catalog reset and seeded: ${formatSummary(await seedDemoCatalog(knex, { reset: true }))}`);
      console.log(`media tree ${mediaRoot}: ${formatSummary(await writeMediaTree({ mediaRoot, log: console.log }))}`);
      return;
    }
    const result = await ensureDemo({ knex, mediaRoot, log: console.log });
    if (!result.seeded) console.log('catalog already has rows; left as is (use --reset to replace them)');
    // ensureDemo has already logged any files it wrote.
    if (result.media && !result.media.written) console.log(`media tree ${mediaRoot} complete: ${formatSummary(result.media)}`);
    if (!result.media) console.log('not the demo catalog, so no demo media written');
  } finally {
    await knex.destroy();
  }
});
