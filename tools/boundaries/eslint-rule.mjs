// ESLint rules. `boundaries/workspace-imports`: an import whose arrow between workspaces is not in
// graph.mjs's table is an error, so `npm run lint` (and so `npm test`) fails when one goes the
// wrong way. `boundaries/no-cycle`: an import that closes a file-level import cycle (cycles.mjs).
// `boundaries/sql-home`: a query built outside db/ and the repository.ts files (sql-home.mjs).
import { chain, cyclesOf, fileGraph, resolveImport } from './cycles.mjs';
import { violation } from './graph.mjs';
import { buildsQuery, sqlAllowedIn } from './sql-home.mjs';

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports between workspaces follow the allowed directions (tools/boundaries/graph.mjs)' },
    schema: [],
  },
  create(context) {
    const check = (node, source, typeOnly) => {
      if (!source || typeof source.value !== 'string') return;
      const why = violation(context.filename, source.value, typeOnly);
      if (why) context.report({ node: source, message: why });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source, node.importKind === 'type'),
      ExportNamedDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
    };
  },
};

// The whole repository's file graph, read once per lint run: a cycle is a property of many files.
let cycleOf;
function cycleMembers() {
  if (!cycleOf) {
    const graph = fileGraph();
    cycleOf = new Map();
    for (const component of cyclesOf(graph)) for (const file of component) cycleOf.set(file, { graph, members: new Set(component) });
  }
  return cycleOf;
}

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle between files, type-only imports included (tools/boundaries/cycles.mjs)' },
    schema: [],
  },
  create(context) {
    const cycle = cycleMembers().get(context.filename);
    if (!cycle) return {};
    const check = (source) => {
      if (!source || typeof source.value !== 'string') return;
      const target = resolveImport(context.filename, source.value);
      if (!target || !cycle.members.has(target)) return;
      const loop = [chain(cycle.graph, context.filename, context.filename)[0], ...chain(cycle.graph, target, context.filename)];
      context.report({ node: source, message: `import cycle: ${loop.join(' -> ')} (move what both sides need into a module of its own)` });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

const sqlHome = {
  meta: {
    type: 'problem',
    docs: { description: 'Queries are built only in db/ and in repository.ts files (tools/boundaries/sql-home.mjs)' },
    schema: [],
  },
  create(context) {
    if (sqlAllowedIn(context.filename)) return {};
    return {
      CallExpression(node) {
        if (buildsQuery(node))
          context.report({
            node,
            message:
              'a query outside a repository: move it into this folder\'s repository.ts, or into db/src/<domain>/ when another process uses the table too (README, "Where SQL lives")',
          });
      },
    };
  },
};

export default { rules: { 'workspace-imports': rule, 'no-cycle': noCycle, 'sql-home': sqlHome } };
