#!/usr/bin/env node
// `npm run import-graph`: the workspace-level import edges of the repository (shipped code and test
// code apart), each with how many imports make it, and any arrow the boundaries forbid. Exits 1 on
// a forbidden arrow; ESLint (eslint-rule.mjs) fails the build on the same table.
import { relative } from 'node:path';
import { importsOf, isTestFile, repoRoot, sourceFiles, targetOf, violation, workspaceOf } from './graph.mjs';

const edges = new Map();
const problems = [];
for (const file of sourceFiles()) {
  const from = workspaceOf(file);
  if (!from) continue;
  const rel = relative(repoRoot, file);
  const kind = isTestFile(rel) ? 'test' : 'code';
  for (const { specifier, typeOnly } of importsOf(file)) {
    const to = targetOf(file, specifier);
    if (!to || !to.workspace || to.workspace === from) continue;
    const key = `${kind}\t${from} -> ${to.workspace}${to.viaPackage ? '' : ' (relative path)'}`;
    edges.set(key, (edges.get(key) ?? 0) + 1);
    const why = violation(file, specifier, typeOnly);
    if (why) problems.push(`${rel}: '${specifier}': ${why}`);
  }
}

for (const kind of ['code', 'test']) {
  console.log(kind === 'code' ? 'Shipped code (workspace -> workspace, imports):' : '\nTest code:');
  const lines = [...edges].filter(([k]) => k.startsWith(`${kind}\t`)).sort(([a], [b]) => a.localeCompare(b));
  for (const [key, n] of lines) console.log(`  ${key.slice(kind.length + 1).padEnd(44)} ${n}`);
}
if (problems.length > 0) {
  console.log(`\n${problems.length} forbidden:`);
  for (const p of problems) console.log(`  ${p}`);
  process.exit(1);
}
console.log('\nNo forbidden arrows.');
