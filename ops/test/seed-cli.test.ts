import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const opsDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(opsDir, '..', 'node_modules', '.bin', 'tsx');

describe('npm run seed', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seed-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // The production images run with NODE_ENV=production; the demo shape sets development.
  it.each(['production', 'Production '])('refuses with NODE_ENV=%j and writes nothing', async (nodeEnv) => {
    const env = {
      ...process.env,
      NODE_ENV: nodeEnv,
      DATABASE_URL: `sqlite:${join(dir, 'catalog.sqlite')}`,
      MEDIA_ROOT: join(dir, 'media'),
    };
    const failure = await run(tsx, [join(opsDir, 'src', 'cli', 'seed.ts')], { env, timeout: 60_000 }).then(
      () => undefined,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('refused with NODE_ENV=production');
    expect(existsSync(join(dir, 'catalog.sqlite'))).toBe(false);
    expect(existsSync(join(dir, 'media'))).toBe(false);
  });
});
