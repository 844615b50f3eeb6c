// A vitest reporter that records each test file's whole time: its import, its hooks (a stack or a
// browser started in beforeAll) and its tests. vitest's JSON report keeps only the tests' own
// time, which hides where a cross-service file spends most of it.
// Writes VITEST_TIMES_FILE (default .vitest-times.json): [{ file, project, tests, ms, start, end }].
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class FileTimesReporter {
  started = new Map();
  rows = [];
  /** Tests that failed, then passed on a retry (the tests project retries once under CI): named, not hidden. */
  retried = [];

  onTestModuleQueued(module) {
    this.started.set(module.moduleId, Date.now());
  }

  onTestModuleEnd(module) {
    const d = module.diagnostic();
    const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
    const end = Date.now();
    const all = [...module.children.allTests()];
    const tests = all.filter((t) => t.result().state !== 'skipped').length;
    for (const t of all) {
      const retries = t.diagnostic()?.retryCount ?? 0;
      if (retries > 0 && t.result().state === 'passed') this.retried.push(`${relative(process.cwd(), module.moduleId)} > ${t.fullName}`);
    }
    this.rows.push({
      file: relative(process.cwd(), module.moduleId),
      project: module.project.name,
      tests,
      ms,
      start: this.started.get(module.moduleId) ?? end - ms,
      end,
    });
  }

  onTestRunEnd() {
    writeFileSync(process.env.VITEST_TIMES_FILE ?? '.vitest-times.json', JSON.stringify(this.rows));
    if (this.retried.length > 0) {
      console.log(`\nFLAKY: ${this.retried.length} test(s) failed, then passed on the retry; each is a race to fix:`);
      for (const name of this.retried) console.log(`  flaky: ${name}`);
    }
  }
}
