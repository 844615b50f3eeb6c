#!/usr/bin/env node
// Where the suite's time went: one row per project (the workspace a test file lives in), from
// vitest's JSON reports. "files" adds up each file's own time; "span" is the wall time from the
// project's first file starting to its last ending (less than "files" where files ran side by side;
// more where the time went to imports and setup that a file's own times leave out).
// The slowest files follow, so the next person knows where to look.
//   node tools/ci/time-table.mjs .vitest-results.json [.vitest-compose.json ...]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const root = process.cwd();
const projects = new Map();
const files = [];
for (const report of process.argv.slice(2)) {
  let json;
  try {
    json = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    continue; // a suite that did not run has no report; the totals line says so
  }
  for (const result of json.testResults ?? []) {
    // A file whose every test was skipped did not run here (the compose suite inside `npm test`).
    const ran = (result.assertionResults ?? []).some((a) => a.status !== 'skipped' && a.status !== 'pending');
    if (!ran) continue;
    const path = relative(root, result.name);
    const parts = path.split('/');
    // tests/ is one project (one file at a time); its folders are shown apart, the compose suite
    // (a second vitest run) too.
    const project = parts[0] === 'tests' ? `tests/${parts[1]}` : parts[0];
    const ms = Math.max(0, result.endTime - result.startTime);
    files.push({ path, ms });
    const row = projects.get(project) ?? { files: 0, ms: 0, start: Infinity, end: 0, tests: 0 };
    row.files += 1;
    row.ms += ms;
    row.tests += result.assertionResults?.length ?? 0;
    row.start = Math.min(row.start, result.startTime);
    row.end = Math.max(row.end, result.endTime);
    projects.set(project, row);
  }
}

const secs = (ms) => `${(ms / 1000).toFixed(0)} s`.padStart(7);
console.log(`${'project'.padEnd(20)} ${'files'.padStart(5)} ${'tests'.padStart(6)} ${'files'.padStart(7)} ${'span'.padStart(7)}`);
for (const [name, row] of [...projects].sort((a, b) => b[1].ms - a[1].ms)) {
  console.log(
    `${name.padEnd(20)} ${String(row.files).padStart(5)} ${String(row.tests).padStart(6)} ${secs(row.ms)} ${secs(row.end - row.start)}`,
  );
}
console.log('\nslowest files:');
for (const { path, ms } of files.sort((a, b) => b.ms - a.ms).slice(0, 15)) console.log(`${secs(ms)}  ${path}`);
