import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';

const run = promisify(execFile);
const opsDir = fileURLToPath(new URL('../..', import.meta.url));
const tsx = join(opsDir, '..', 'node_modules', '.bin', 'tsx');

/** Runs one of ops/src/cli's scripts (`seed.ts`, `seed-scale.ts`) under tsx in its own process, with `env` on top of this one's. */
export async function seedCli(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(tsx, [join(opsDir, 'src', 'cli', script), ...args], {
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** A temporary folder for the enclosing describe: made in beforeAll, removed in afterAll; read `path` inside hooks and tests. */
export function useTempDir(prefix: string): { readonly path: string } {
  let path: string | undefined;
  beforeAll(async () => {
    path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (path) await rm(path, { recursive: true, force: true });
  });
  return {
    get path() {
      if (!path) throw new Error('the folder is made in beforeAll: use it inside hooks and tests');
      return path;
    },
  };
}
