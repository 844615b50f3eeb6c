import { createKnex, migrateLatest } from '../index';
import { databaseUrlFromEnv } from './env';

const knex = createKnex(databaseUrlFromEnv());
try {
  const applied = await migrateLatest(knex);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
} catch (err) {
  console.error('migration failed:', err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await knex.destroy();
}
