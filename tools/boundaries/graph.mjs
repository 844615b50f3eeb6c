// The workspace graph: which workspace each file belongs to, which arrows between workspaces are
// allowed, and the edges the code actually has. Shared by the ESLint rule (eslint-rule.mjs) and
// `npm run import-graph` (import-graph.mjs), so the two can never disagree.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Folder (from the repository root) → workspace name. Longest match wins. */
export const WORKSPACES = {
  contracts: 'contracts',
  storage: 'storage',
  db: 'db',
  encoder: 'encoder',
  ops: 'ops',
  bff: 'bff',
  'front-follower': 'front-follower',
  'media-service': 'media-service',
  frontend: 'frontend',
  'tools/simulator': 'simulator',
  tools: 'tools',
  scripts: 'scripts',
  tests: 'tests',
};

/** Package name → workspace name. */
export const PACKAGES = {
  '@media-site/contracts': 'contracts',
  '@media-site/storage': 'storage',
  '@media-site/db': 'db',
  '@media-site/encoder': 'encoder',
  '@media-site/ops': 'ops',
  '@media-site/bff': 'bff',
  '@media-site/front-follower': 'front-follower',
  '@media-site/media-service': 'media-service',
  '@media-site/frontend': 'frontend',
  '@media-site/simulator': 'simulator',
  '@media-site/tests': 'tests',
};

/**
 * The allowed arrows of shipped code, one workspace per process. contracts is the bottom (zod only);
 * storage is where originals live (local tree or S3); db is the data layer every process shares
 * (knex, migrations, the tables more than one process writes: members, content, moderation, mail,
 * the encode queue, payments). The encoder (the ffmpeg worker) needs the database, and storage
 * for the bucket with STORAGE=s3. ops, the operator command line (ingest, seeds, members, reports,
 * payments), runs the encoder in-process (`ingest --wait`, `encode`) and never the bff: what both
 * do (settling a payment, a takedown) lives in db.
 * The front-follower (one beside each nginx host) runs the
 * bff's own generation tracking with caching off, so it takes the bff's catalog cache. The two services never import each other: the media service
 * needs storage, not the database; the bff needs the database, and neither sharp nor the S3 client.
 * The SPA takes only browser-safe contracts. The simulator is a tool: no service imports it.
 * scripts/ (the `npm start` launcher) and tests/ are the top: they may use any package, through its
 * exports only (tests/ may also read sources by path).
 */
export const ALLOWED = {
  contracts: [],
  storage: ['contracts'],
  db: ['contracts'],
  encoder: ['contracts', 'storage', 'db'],
  ops: ['contracts', 'storage', 'db', 'encoder'],
  'media-service': ['contracts', 'storage'],
  bff: ['contracts', 'db'],
  'front-follower': ['contracts', 'db', 'bff'],
  frontend: ['contracts'],
  simulator: ['contracts'],
  tools: [],
  scripts: ['contracts', 'storage', 'db', 'encoder', 'ops', 'bff', 'front-follower', 'media-service', 'simulator'],
  tests: ['contracts', 'storage', 'db', 'encoder', 'ops', 'bff', 'front-follower', 'media-service', 'simulator', 'scripts', 'frontend'],
};

/**
 * Test code of a workspace may also use these: the provider simulator for the bff's payment tests,
 * the operator commands for the bff's tests that add members or take content down as an operator
 * does (devDependencies: the bff image carries neither).
 */
export const ALLOWED_IN_TESTS = {
  bff: ['simulator', 'ops'],
  'media-service': [],
  storage: [],
  db: [],
  encoder: [],
  ops: [],
  'front-follower': [],
  contracts: [],
  frontend: [],
};

/** Contracts modules the SPA may import: no Node built-ins in them, so they bundle for the browser. */
export const BROWSER_CONTRACTS = [
  'card',
  'content-bulk-limits',
  'errors',
  'member-rules',
  'membership-offer',
  'player-quality',
  'provider',
  'queue-names',
  'report-vocabulary',
  'search-filters',
  'site-status',
  'stats-vocabulary',
];

const TEST_FILE = /\.test\.tsx?$|(?:^|\/)(?:test|tests|fixtures[^/]*)\/|(?:^|\/)testing[^/]*\.ts$|(?:^|\/)test-kit\.ts$/;

export function isTestFile(relPath) {
  return TEST_FILE.test(relPath.split(sep).join('/'));
}

/** The workspace a path (absolute, or relative to the repository root) lies in, or undefined. */
export function workspaceOf(path) {
  const rel = relative(repoRoot, resolve(repoRoot, path)).split(sep).join('/');
  if (rel.startsWith('..')) return undefined;
  let best;
  for (const folder of Object.keys(WORKSPACES)) {
    if ((rel === folder || rel.startsWith(`${folder}/`)) && (!best || folder.length > best.length)) best = folder;
  }
  return best && WORKSPACES[best];
}

/**
 * What an import specifier in `fromFile` reaches: { workspace, viaPackage, subpath }, or undefined
 * for a third-party package or a Node built-in.
 */
export function targetOf(fromFile, specifier) {
  if (specifier.startsWith('.')) {
    const target = resolve(dirname(fromFile), specifier);
    return { workspace: workspaceOf(target), viaPackage: false, subpath: relative(repoRoot, target) };
  }
  const m = /^(@media-site\/[a-z-]+)(?:\/(.*))?$/.exec(specifier);
  if (!m || !PACKAGES[m[1]]) return undefined;
  return { workspace: PACKAGES[m[1]], viaPackage: true, subpath: m[2] ?? '' };
}

/** Why `specifier` in `fromFile` is not allowed, or undefined when it is. */
export function violation(fromFile, specifier, typeOnly = false) {
  const from = workspaceOf(fromFile);
  const to = targetOf(fromFile, specifier);
  if (!from || !to || !to.workspace || to.workspace === from) return undefined;
  const rel = relative(repoRoot, fromFile);
  const test = isTestFile(rel);
  if (!to.viaPackage && from !== 'tests') {
    return `${from} reaches into ${to.workspace} by a relative path; import its package (@media-site/${to.workspace}/…) instead`;
  }
  const allowed = [...(ALLOWED[from] ?? []), ...(test ? (ALLOWED_IN_TESTS[from] ?? []) : [])];
  if (!allowed.includes(to.workspace)) {
    return `${from} must not import ${to.workspace} (allowed: ${allowed.join(', ') || 'nothing'}; see tools/boundaries/graph.mjs)`;
  }
  if (from === 'frontend' && to.workspace === 'contracts' && !typeOnly && !BROWSER_CONTRACTS.includes(to.subpath)) {
    return `the SPA may import only browser-safe contracts (${BROWSER_CONTRACTS.join(', ')}), or types with \`import type\``;
  }
  return undefined;
}

const SOURCE = /\.(?:ts|tsx|mts|js|mjs)$/;
const SKIP = new Set(['node_modules', 'dist', '.data', 'artifacts', 'coverage', '.git']);

export function sourceFiles(dir = repoRoot) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// One white-space character after import/export and type (formatted code): `\s+` there could trade
// characters with the lazy `[^'";]*?` (super-linear backtracking, which eslint-plugin-regexp refuses).
const IMPORT = /(?:^|[\s;])(?:import|export)\s(type\s)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every import of a file: [{ specifier, typeOnly }]. A regex, not a parser: good enough for our own code. */
export function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(IMPORT)) out.push({ specifier: m[2] ?? m[3], typeOnly: Boolean(m[1]) });
  return out;
}
