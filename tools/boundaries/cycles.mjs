// File-level import cycles, anywhere in the repository: the graph of which source file imports
// which (relative paths and the workspaces' package exports, type-only imports included), and its
// strongly connected components. Any component of more than one file, or a file importing itself,
// is a cycle. Used by the ESLint rule `boundaries/no-cycle` (eslint-rule.mjs), so `npm run lint`
// fails on one. A regex reads the imports (graph.mjs importsOf): good enough for our own code.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { importsOf, PACKAGES, repoRoot, sourceFiles, WORKSPACES } from './graph.mjs';

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'];

function fileAt(base) {
  for (const ext of EXTENSIONS) {
    const path = base + ext;
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return undefined;
}

const folderOf = Object.fromEntries(Object.entries(WORKSPACES).map(([folder, name]) => [name, folder]));
const exportsCache = new Map();

function packageExports(workspace) {
  if (!exportsCache.has(workspace)) {
    const dir = join(repoRoot, folderOf[workspace]);
    const { exports = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    exportsCache.set(workspace, { dir, exports: typeof exports === 'string' ? { '.': exports } : exports });
  }
  return exportsCache.get(workspace);
}

/** The source file an import specifier in `fromFile` reaches, or undefined (npm packages, built-ins). */
export function resolveImport(fromFile, specifier) {
  if (specifier.startsWith('.')) return fileAt(resolve(dirname(fromFile), specifier));
  const m = /^(@media-site\/[a-z-]+)(?:\/(.*))?$/.exec(specifier);
  if (!m || !PACKAGES[m[1]]) return undefined;
  const { dir, exports } = packageExports(PACKAGES[m[1]]);
  const key = m[2] ? `./${m[2]}` : '.';
  let target = exports[key];
  // A `./*` pattern (contracts): the one wildcard form the workspaces use.
  if (target === undefined && typeof exports['./*'] === 'string' && key !== '.') target = exports['./*'].replace('*', m[2]);
  return typeof target === 'string' ? fileAt(resolve(dir, target)) : undefined;
}

/** file -> the files it imports, for every source file of the repository. */
export function fileGraph(files = sourceFiles()) {
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const { specifier } of importsOf(file)) {
      const target = resolveImport(file, specifier);
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The cycles of a graph (Map node -> Set of nodes): its strongly connected components that loop. */
export function cyclesOf(graph) {
  // Tarjan's algorithm, iterative: the repository's import chains are deeper than a comfortable stack.
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [[root, [...(graph.get(root) ?? [])], 0]];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, edges] = frame;
      if (frame[2] < edges.length) {
        const to = edges[frame[2]++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push([to, [...(graph.get(to) ?? [])], 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || graph.get(node)?.has(node)) components.push(component);
      }
    }
  }
  return components;
}

/** The shortest import chain from `from` to `to` (files relative to the repository), for the message. */
export function chain(graph, from, to) {
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length && !previous.has(to)) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, node);
      queue.push(next);
    }
  }
  if (!previous.has(to)) return [];
  const path = [];
  for (let node = to; node !== undefined; node = previous.get(node)) path.unshift(node);
  return path.map((file) => relative(repoRoot, file));
}
