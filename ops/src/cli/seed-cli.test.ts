import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedCli, useTempDir } from '../test/seed-cli-kit';

describe('npm run seed', () => {
  const dir = useTempDir('seed-cli-');

  // The production images run with NODE_ENV=production; the demo shape sets development.
  it.each(['production', 'Production '])('refuses with NODE_ENV=%j and writes nothing', async (nodeEnv) => {
    const env = { NODE_ENV: nodeEnv, DATABASE_URL: `sqlite:${join(dir.path, 'catalog.sqlite')}`, MEDIA_ROOT: join(dir.path, 'media') };
    const result = await seedCli('seed.ts', [], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refused with NODE_ENV=production');
    expect(existsSync(join(dir.path, 'catalog.sqlite'))).toBe(false);
    expect(existsSync(join(dir.path, 'media'))).toBe(false);
  });
});
