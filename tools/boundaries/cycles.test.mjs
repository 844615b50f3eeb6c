import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chain, cyclesOf, fileGraph, resolveImport } from './cycles.mjs';
import { repoRoot } from './graph.mjs';

const at = (path) => join(repoRoot, path);
const graphOf = (edges) => new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

describe('import cycles', () => {
  it('finds every loop, a file importing itself included, and nothing else', () => {
    const graph = graphOf({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [], e: ['a', 'e'], f: ['d'] });
    const cycles = cyclesOf(graph).map((c) => [...c].sort());
    expect(cycles.sort()).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('resolves relative paths and the workspaces’ package exports to files', () => {
    expect(resolveImport(at('ops/src/commands/registry.ts'), './types')).toBe(at('ops/src/commands/types.ts'));
    expect(resolveImport(at('bff/src/server.ts'), '@media-site/db/mail')).toBe(at('db/src/mail/index.ts'));
    expect(resolveImport(at('bff/src/server.ts'), '@media-site/contracts/errors')).toBe(at('contracts/src/errors.ts'));
    expect(resolveImport(at('bff/src/server.ts'), 'koa')).toBeUndefined();
  });

  it('names the chain that closes a loop', () => {
    expect(chain(graphOf({ [at('a')]: [at('b')], [at('b')]: [at('a')] }), at('b'), at('a'))).toEqual(['b', 'a']);
  });

  it('finds no import cycle in the repository', () => {
    expect(cyclesOf(fileGraph())).toEqual([]);
  });
});
