import { createKnex, databaseUrlFromEnv, mediaRootFromEnv, migrateLatest } from '@media-site/db';
import { loadS3Settings } from '@media-site/storage';
import { formatSummary, ensureDemo } from '../demo';
import { parseFlags, runCli } from '../seed/args';
import { seedBucket } from '../seed/bucket';
import { seedDemoCatalog } from '../seed/demo-rows';
import { writeMediaTree } from '../seed/media';

const usage = `usage: npm run seed [-- --reset]

Seeds the demo catalog (when the catalog is empty) and writes its media tree under MEDIA_ROOT,
or with STORAGE=s3 uploads it to the bucket (generated in a scratch folder first).
  --reset   empty the catalog tables first and seed the demo rows again
Environment: DATABASE_URL (default: embedded SQLite), MEDIA_ROOT (default: .data/media),
STORAGE and S3_* (docs/configuration.md).
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
  const storage = loadS3Settings(process.env);
  const knex = createKnex(databaseUrlFromEnv());
  const mediaRoot = mediaRootFromEnv();
  const where = storage ? `bucket ${storage.bucket}` : `media tree ${mediaRoot}`;
  try {
    if (flags.reset) {
      await migrateLatest(knex);
      console.log(`catalog reset and seeded: ${formatSummary(await seedDemoCatalog(knex, { reset: true }))}`);
      const media = storage
        ? (await seedBucket({ settings: storage, force: true, log: console.log })).media
        : await writeMediaTree({ mediaRoot, log: console.log });
      console.log(`${where}: ${formatSummary(media)}`);
      return;
    }
    const result = await ensureDemo({ knex, mediaRoot, log: console.log, storage });
    if (!result.seeded) console.log('catalog already has rows; left as is (use --reset to replace them)');
    // ensureDemo has already logged any files it wrote.
    if (result.media && !result.media.written) console.log(`${where} complete: ${formatSummary(result.media)}`);
    if (!result.media) console.log('not the demo catalog, so no demo media written');
  } finally {
    await knex.destroy();
  }
});
