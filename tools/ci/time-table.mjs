#!/usr/bin/env node
// Where the suite's time went: one row per project (the workspace a test file lives in; tests/ by
// folder), from the file-times reporter (tools/ci/file-times-reporter.mjs). "files" adds up each
// file's whole time (import, hooks, tests); "span" is the wall time from the project's first file
// starting to its last ending (less than "files" where its files ran side by side).
// The slowest files follow, so the next person knows where to look.
//   node tools/ci/time-table.mjs .vitest-times.json [.vitest-compose-times.json ...]
import { readFileSync } from 'node:fs';

const projects = new Map();
const files = [];
let first = Infinity;
let last = 0;
for (const report of process.argv.slice(2)) {
  let rows;
  try {
    rows = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    continue; // a suite that did not run has no report; the totals line says so
  }
  for (const { file, tests, ms, start, end } of rows) {
    // A file whose every test was skipped did not run here (the compose suite inside `npm test`).
    if (tests === 0) continue;
    const parts = file.split('/');
    const project = parts[0] === 'tests' ? `tests/${parts[1]}` : parts[0];
    files.push({ file, ms });
    const row = projects.get(project) ?? { files: 0, ms: 0, start: Infinity, end: 0, tests: 0 };
    row.files += 1;
    row.ms += ms;
    row.tests += tests;
    row.start = Math.min(row.start, start);
    row.end = Math.max(row.end, end);
    projects.set(project, row);
    first = Math.min(first, start);
    last = Math.max(last, end);
  }
}

const secs = (ms) => `${(ms / 1000).toFixed(0)} s`.padStart(7);
console.log(`${'project'.padEnd(20)} ${'files'.padStart(5)} ${'tests'.padStart(6)} ${'files'.padStart(7)} ${'span'.padStart(7)}`);
for (const [name, row] of [...projects].sort((a, b) => b[1].ms - a[1].ms)) {
  console.log(
    `${name.padEnd(20)} ${String(row.files).padStart(5)} ${String(row.tests).padStart(6)} ${secs(row.ms)} ${secs(row.end - row.start)}`,
  );
}
const total = [...projects.values()].reduce((sum, row) => sum + row.ms, 0);
if (files.length)
  console.log(`${'all'.padEnd(20)} ${String(files.length).padStart(5)} ${''.padStart(6)} ${secs(total)} ${secs(last - first)}`);
console.log('\nslowest files:');
for (const { file, ms } of files.sort((a, b) => b.ms - a.ms).slice(0, 15)) console.log(`${secs(ms)}  ${file}`);
