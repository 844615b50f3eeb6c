// Where SQL lives (README, "Where SQL lives"): in db/ (the tables and rules more than one process
// shares) and in files named repository.ts (a process's own tables); handlers, services and workers
// call those and build no query. Test code may seed tables directly. Shared by the ESLint rule
// `boundaries/sql-home` (eslint-rule.mjs) and its tests.
import { relative, sep } from 'node:path';
import { isTestFile, repoRoot, workspaceOf } from './graph.mjs';

/** The workspaces whose shipped code the rule checks: the processes. db is SQL's home; the rest never query. */
const CHECKED = new Set(['bff', 'front-follower', 'media-service', 'encoder', 'ops']);

/** Files still building queries outside a repository, each with the reason it does. */
export const SQL_EXCEPTIONS = [
  {
    path: /^ops\/src\/seed\//,
    why: 'the demo and scale seeds write rows in bulk as fixtures do (tables.ts empties and fills the catalog), run only by the operator',
  },
  {
    path: /^ops\/src\/demo\.ts$/,
    why: "the demo's set-up writes the showcase clips' real durations into the rows it just seeded",
  },
  {
    path: /^ops\/src\/ingest\/(?:catalog-writer|ensure-jobs|stats)\.ts$/,
    why: "the ingest's catalog writes, job sweep and counts: its bulk upsert keeps a model directory in memory across a whole folder; it runs only in ops, and moving it into db/ is the next step",
  },
];

const REPOSITORY = /(?:^|\/)repository\.ts$/;

/** Whether `file` (absolute) may build queries. */
export function sqlAllowedIn(file) {
  const rel = relative(repoRoot, file).split(sep).join('/');
  if (!CHECKED.has(workspaceOf(file)) || isTestFile(rel) || REPOSITORY.test(rel)) return true;
  return SQL_EXCEPTIONS.some((e) => e.path.test(rel));
}

// What a knex instance or transaction is called here; `deps.knex`, `this.options.knex` too.
const HANDLE = /^(?:knex|db|trx)$/;
// Query builders started from the instance itself (`knex.raw(...)`, `knex.select(...).from(...)`).
const STARTERS =
  /^(?:raw|select|from|count|min|max|sum|avg|ref|schema|union|insert|update|del|delete|where\w*|with|queryBuilder|fn|table|into|first|pluck|distinct)$/;

const isHandle = (node) =>
  (node.type === 'Identifier' && HANDLE.test(node.name)) ||
  (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier' && node.property.name === 'knex');

/** Whether a call builds a query: `knex('table')`, `deps.knex('table')`, `knex.raw(...)`, `trx.select(...)`. */
export function buildsQuery(call) {
  const callee = call.callee;
  if (isHandle(callee)) return true;
  return (
    callee.type === 'MemberExpression' &&
    !callee.computed &&
    callee.property.type === 'Identifier' &&
    STARTERS.test(callee.property.name) &&
    isHandle(callee.object)
  );
}
