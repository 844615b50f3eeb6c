// npm run reliability:all — load, faults and hostile input, one after the other, then the figures
// table of docs/reliability.md rewritten from what they recorded. Exit code 1 if any part failed.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/site';
import { figuresDir } from './lib/figures';
import { writeReport } from './report';

rmSync(figuresDir, { recursive: true, force: true });
const tests = join(repoRoot, 'tests');
const tsx = [process.execPath, ['--import', 'tsx']] as const;
const parts: [string, string, string[]][] = [
  ['load', tsx[0], [...tsx[1], 'reliability/load.run.ts']],
  ['faults', tsx[0], [...tsx[1], 'reliability/faults.run.ts']],
  [
    'hostile',
    process.execPath,
    [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', 'reliability/hostile-input', 'reliability/limits'],
  ],
];
const failed: string[] = [];
const load = loadavg()[0]?.toFixed(1);
for (const [name, command, args] of parts) {
  console.log(`\n=== reliability:${name}`);
  const r = spawnSync(command, args, { cwd: tests, stdio: 'inherit', env: { ...process.env, TZ: 'UTC' } });
  if (r.status !== 0) failed.push(name);
}
writeReport(
  `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run reliability:all\` on ${cpus().length} cores (load average ${load} at the start), loopback, ` +
    `LOAD_SECONDS=${process.env.LOAD_SECONDS ?? 60}, FAULT_PHASE_MS=${process.env.FAULT_PHASE_MS ?? 8000}, HOSTILE_RUNS=${process.env.HOSTILE_RUNS ?? 300}.` +
    (failed.length ? ` Parts that failed: ${failed.join(', ')}.` : ''),
);
if (failed.length) process.exit(1);
