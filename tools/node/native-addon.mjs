// better-sqlite3's addon is built for one Node ABI. `npm ci` builds it for the machine's Node while
// `npm test` runs on the images' Node (tools/node/on-images-node.sh): this makes the installed addon
// the running Node's before anything loads it. Every build is kept per ABI in the user's cache, so
// switching back and forth is a copy; a build this Node has never had is made once (`npm rebuild
// better-sqlite3`, offline against the headers npm_config_nodedir names when images-node.sh set it).
// Plain JavaScript without dependencies: it runs on any Node from 20 up. Quiet when nothing changes.
//   node tools/node/native-addon.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const packageDir = join(repoRoot, 'node_modules', 'better-sqlite3');
const addon = join(packageDir, 'build', 'Release', 'better_sqlite3.node');
if (!existsSync(packageDir)) {
  console.error('better-sqlite3 is not installed: run `npm ci` first');
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const abi = process.versions.modules;
const cacheRoot = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'media-site-node', 'addons');
const keptFor = (forAbi) =>
  join(cacheRoot, `better-sqlite3-${version}-${process.platform}-${process.arch}-abi${forAbi}`, 'better_sqlite3.node');

/** '' when a database opens in a fresh process (this one may hold a failed load of the old file), else why not. */
function failure() {
  const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return probe.status === 0 ? '' : probe.stderr || `exit ${probe.status}`;
}

/** Copy, then rename over: a process that has the old file loaded keeps its own (the inode). */
function place(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  const partial = `${to}.${process.pid}.partial`;
  copyFileSync(from, partial);
  renameSync(partial, to);
}

let why = failure();
if (!why) {
  if (!existsSync(keptFor(abi))) place(addon, keptFor(abi));
  process.exit(0);
}
// Node names the ABI the file was built for: keep that build before replacing it.
const builtFor = /NODE_MODULE_VERSION (\d+)\. This version/.exec(why)?.[1];
if (builtFor && !existsSync(keptFor(builtFor))) place(addon, keptFor(builtFor));
if (existsSync(keptFor(abi))) {
  place(keptFor(abi), addon);
  why = failure();
  if (!why) process.exit(0);
}
console.error(`better-sqlite3 ${version} is built for another Node; building it for Node ${process.version} (ABI ${abi}), once`);
// npm and node-gyp build for the `node` first on PATH, against npm_config_nodedir's headers when set:
// this Node's, and never another release's.
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
const nodedirNode = env.npm_config_nodedir && join(env.npm_config_nodedir, 'bin', 'node');
if (nodedirNode && existsSync(nodedirNode) && realpathSync(nodedirNode) !== realpathSync(process.execPath)) delete env.npm_config_nodedir;
try {
  execFileSync('npm', ['rebuild', 'better-sqlite3'], { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'inherit'] });
} catch {
  // The check below says what is wrong.
}
why = failure();
if (why) {
  console.error(`better-sqlite3 does not load on Node ${process.version} after a rebuild:\n${why}`);
  process.exit(1);
}
place(addon, keptFor(abi));
