// A vitest reporter that records each test file's whole time: its import, its hooks (a stack or a
// browser started in beforeAll) and its tests. vitest's JSON report keeps only the tests' own
// time, which hides where a cross-service file spends most of it.
// Writes VITEST_TIMES_FILE (default .vitest-times.json): [{ file, project, tests, ms, start, end }].
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class FileTimesReporter {
  started = new Map();
  rows = [];

  onTestModuleQueued(module) {
    this.started.set(module.moduleId, Date.now());
  }

  onTestModuleEnd(module) {
    const d = module.diagnostic();
    const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
    const end = Date.now();
    const tests = [...module.children.allTests()].filter((t) => t.result().state !== 'skipped').length;
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
  }
}
