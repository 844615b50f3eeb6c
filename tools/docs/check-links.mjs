// Dead references in the Markdown files fail `npm run lint`: every relative link must name a file
// that exists (and a heading there, for `#anchor`), and every backticked repository path
// (`bff/src/config.ts`, or `src/x.ts` inside a workspace) must exist. Run from anywhere; exit 1
// lists each dead reference as file:line.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const SKIP = new Set();

/** Tracked and new (not ignored) Markdown files: node_modules, build output and test artifacts are ignored. */
function markdownFiles() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.md'], {
    cwd: root,
    encoding: 'utf8',
  });
  return out.split('\0').filter((file) => file && !SKIP.has(file) && existsSync(join(root, file)));
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingIds(text) {
  const ids = new Set();
  const seen = new Map();
  for (const { line } of proseLines(text)) {
    const heading = /^#{1,6} /.exec(line);
    if (heading) {
      const base = line
        .slice(heading[0].length)
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
        .replace(/ /g, '-');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      ids.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const anchor of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(anchor[1]);
  }
  return ids;
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text) {
  const lines = [];
  let fence = null;
  text.split('\n').forEach((line, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line);
    if (marker) {
      if (fence === null) fence = marker[1][0];
      else if (marker[1][0] === fence) fence = null;
      return;
    }
    if (fence === null) lines.push({ line, number: i + 1 });
  });
  return lines;
}

const idCache = new Map();
function idsOf(file) {
  if (!idCache.has(file)) idCache.set(file, headingIds(readFileSync(file, 'utf8')));
  return idCache.get(file);
}

/** The folder of the nearest package.json above `file`: where a workspace's `src/...` paths start. */
function workspaceOf(file) {
  for (let dir = dirname(file); dir.startsWith(root); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return root;
}

function checkLink(file, target) {
  const [path, anchor] = target.split('#', 2);
  const resolved = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
  if (!existsSync(resolved)) return `no such file: ${target}`;
  if (anchor === undefined || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) return undefined;
  return idsOf(resolved).has(anchor) ? undefined : `no heading #${anchor} in ${relative(root, resolved)}`;
}

// A backticked path: segments of name characters joined by slashes, starting where a repository or
// workspace folder starts. Placeholders (`photos/<path>/meta.json`), URLs, globs and routes are not paths.
const PATH_SPAN = /^(?:[\w@.-]+\/)+[\w@.-]*$/;

function checkPath(file, span) {
  const path = span.replace(/:\d+(?::\d+)?$/, '');
  if (!PATH_SPAN.test(path) || path.startsWith('.') || path.includes('..')) return undefined;
  const first = path.split('/')[0];
  const bases = [root, workspaceOf(file)].filter((base) => existsSync(join(base, first)));
  if (bases.length === 0) return undefined;
  // A module named as imports name it: `src/cache/front-generation` is front-generation.ts.
  const exists = (base) => ['', '.ts', '.tsx', '.mjs', '.js'].some((ext) => existsSync(join(base, path + ext)));
  if (bases.some(exists) || bases.some((base) => isGenerated(join(base, path)))) return undefined;
  return `no such path: ${span}`;
}

/** Build output and test artifacts: ignored by git, absent until something writes them. */
function isGenerated(absolute) {
  const path = relative(root, absolute);
  for (const candidate of [path, `${path.replace(/\/$/, '')}/`]) {
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', candidate], { cwd: root, stdio: 'ignore' });
      return true;
    } catch {
      // not ignored
    }
  }
  return false;
}

const problems = [];
for (const name of markdownFiles()) {
  const file = join(root, name);
  for (const { line, number } of proseLines(readFileSync(file, 'utf8'))) {
    const report = (problem) => problem && problems.push(`${name}:${number}: ${problem}`);
    // Inline code first: a link's syntax inside backticks is text, not a link.
    for (const span of line.matchAll(/`([^`]+)`/g)) report(checkPath(file, span[1].trim()));
    const prose = line.replace(/`[^`]+`/g, '');
    for (const link of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = link[1].replace(/^<|>$/g, '');
      if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith('/')) continue;
      report(checkLink(file, target));
    }
  }
}

if (problems.length > 0) {
  console.error(`check-links: ${problems.length} dead reference(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
