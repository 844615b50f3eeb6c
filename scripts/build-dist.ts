import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

// Production JavaScript for the images: one ESM bundle per entry point, with the workspaces'
// own code (`@media-site/<ws>/...`, TypeScript behind `exports` maps) bundled in and every npm
// package left external (installed by `npm ci --omit=dev -w <ws>` beside it). Development keeps
// running the sources through tsx.
//
// Bundles sit at the same depth under the workspace as the sources that use `import.meta.url`
// (bff/src/config.ts -> bff/dist/*.js, ops/src/seed/sample-video.ts -> ops/dist/cli/*.js), so
// their relative paths (repo root, ops/fixtures) still resolve.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const targets: Record<string, { dir: string; entries: Record<string, string>; ext?: string }> = {
  bff: { dir: 'bff', entries: { main: 'src/main.ts' } },
  'front-follower': { dir: 'front-follower', entries: { main: 'src/main.ts' } },
  'media-service': { dir: 'media-service', entries: { main: 'src/main.ts' } },
  db: { dir: 'db', entries: { 'cli/migrate': 'src/cli/migrate.ts' } },
  encoder: { dir: 'encoder', entries: { main: 'src/main.ts' } },
  ops: {
    dir: 'ops',
    entries: {
      'cli/ops': 'src/cli/ops.ts',
      'cli/seed': 'src/cli/seed.ts',
      'cli/seed-scale': 'src/cli/seed-scale.ts',
    },
  },
  // The card-provider simulator for compose's demo shape: no packages, runs from a bare folder
  // (.mjs: no package.json with "type": "module" beside it).
  simulator: { dir: 'tools/simulator', entries: { simulator: 'src/main.ts' }, ext: '.mjs' },
};

/** npm packages stay imports; the workspaces' sources are bundled. */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@media-site/') ? undefined : { path: args.path, external: true }));
  },
};

const names = process.argv.slice(2);
if (names.length === 0 || names.some((n) => !(n in targets))) {
  console.error(`usage: build-dist.ts <${Object.keys(targets).join('|')}>...`);
  process.exit(2);
}
for (const name of names) {
  const target = targets[name]!;
  const dir = resolve(repoRoot, target.dir);
  const { engines } = JSON.parse(await readFile(resolve(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
  const minNode = /(\d+)/.exec(engines.node)?.[1] ?? '20';
  const result = await build({
    absWorkingDir: dir,
    entryPoints: Object.fromEntries(Object.entries(target.entries).map(([out, src]) => [out, resolve(dir, src)])),
    outdir: resolve(dir, 'dist'),
    outExtension: { '.js': target.ext ?? '.js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${minNode}`,
    sourcemap: 'linked',
    // Names in stack traces and pino's error serialiser stay readable.
    keepNames: true,
    plugins: [externalPackages],
    logLevel: 'warning',
    metafile: true,
  });
  const outputs = Object.entries(result.metafile.outputs).filter(([file]) => !file.endsWith('.map'));
  for (const [file, out] of outputs) console.log(`${name}: ${file} ${(out.bytes / 1024).toFixed(0)} KiB`);
}
