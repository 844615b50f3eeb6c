import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The cross-service files first, then the workspaces' own. vitest runs projects in name order, so
 * `tests` (the longest files: a browser journey is 30-130 s) came last and its longest file ran on
 * alone at the end; started first, the many short unit files fill the workers at the end instead.
 * Within a project vitest's order stays: longest (or, on a first run, largest) first.
 */
class CrossServiceFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const crossService = (file: TestSpecification) => file.project.name === 'tests';
    return [...sorted.filter(crossService), ...sorted.filter((file) => !crossService(file))];
  }
}

export default defineConfig({
  test: {
    // Three test files at a time on two cores, in every project (vitest's default there is one:
    // cores - 1). The files wait on MariaDB, Redis, SMTP, browsers and timers about half their time
    // (measured per file: a browser file's processes use 0.1-0.7 of a core), and each has a
    // database, ports and a Redis prefix of its own. Two kept the machine 60-70 % busy; three keep
    // it about 76 % busy and the suite took 845 s instead of 1,045 s in one run (README, "Suite
    // time"). Earlier tries at three each exposed a timing race, all five fixed since.
    maxWorkers: 3,
    sequence: { sequencer: CrossServiceFirst },
    projects: [
      'contracts',
      'db',
      'encoder',
      'ops',
      'bff',
      'media-service',
      'frontend',
      'tests',
      // The workspace-boundary table and its checks (tools/boundaries).
      { test: { name: 'tools', include: ['tools/**/*.test.mjs'] } },
    ],
  },
});
