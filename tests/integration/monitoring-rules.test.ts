import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The alert rules (monitoring/alerts.yml) as Prometheus's own promtool reads them: valid, and each
// alert made to fire, and kept quiet, by input series (monitoring/*.test.yml). Debian's `prometheus`
// package brings promtool (`.ci/run` installs it).
const repo = join(import.meta.dirname, '../..');
const dir = join(repo, 'monitoring');
const run = promisify(execFile);
const read = (file: string) => readFileSync(join(dir, file), 'utf8');
const testFiles = readdirSync(dir).filter((f) => f.endsWith('.test.yml'));
const alerts = [...read('alerts.yml').matchAll(/^ +- alert: (\w+)$/gm)].map((m) => m[1] as string);

describe('alert rules', () => {
  it('pass promtool check rules', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', 'alerts.yml'], { cwd: dir });
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it("sit beside scrape configurations promtool reads (the compose profiles': single-host and multi-host)", async () => {
    const configs = ['prometheus.yml', 'prometheus-multihost.yml'];
    const { stdout } = await run('promtool', ['check', 'config', '--syntax-only', ...configs], { cwd: dir });
    expect(stdout.match(/SUCCESS/g)).toHaveLength(configs.length);
    // Both name the same jobs the rules read (the multi-host one adds the followers).
    for (const job of ['bff', 'media', 'encoder', 'nginx', 'mysqld', 'redis', 'node'])
      for (const config of configs) expect(read(config), `${config}: ${job}`).toContain(`- job_name: ${job}\n`);
  });

  it('pass their promtool unit tests', async () => {
    const { stdout, stderr } = await run('promtool', ['test', 'rules', ...testFiles], { cwd: dir }).catch(
      (err: { stdout: string; stderr: string }) => err,
    );
    expect(`${stdout}\n${stderr}`).not.toContain('FAILED');
    expect(stdout.match(/SUCCESS/g)).toHaveLength(testFiles.length);
  });

  it('each alert is tested firing, and has a runbook section in docs/operate.md', () => {
    expect(alerts.length).toBeGreaterThanOrEqual(25);
    const tests = testFiles.map(read).join('\n');
    const operate = readFileSync(join(repo, 'docs/operate.md'), 'utf8');
    const anchors = new Set(
      [...operate.matchAll(/^#+ (.+)$/gm)].map((m) =>
        (m[1] as string)
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    for (const name of alerts) {
      // A firing case: the alert's name followed by a non-empty exp_alerts list.
      expect(tests, name).toMatch(new RegExp(`alertname: ${name}\\n\\s+exp_alerts:\\n\\s+- exp_labels`));
    }
    for (const [, anchor] of read('alerts.yml').matchAll(/runbook: 'docs\/operate\.md#([\w-]+)'/g))
      expect(anchors, anchor).toContain(anchor);
  });

  it('read only metrics the services export', () => {
    const ours = new Set(
      [...read('alerts.yml').matchAll(/\b((?:bff|media|queue|backup|mail|purge|encoder|follower)_[a-z_]+?)(?:_bucket|_count)?\b/g)].map(
        (m) => m[1] as string,
      ),
    );
    const sources = ['bff/src', 'media-service/src', 'encoder/src', 'front-follower/src']
      .flatMap((d) => readdirSync(join(repo, d), { recursive: true, encoding: 'utf8' }).map((f) => join(repo, d, f)))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    expect(ours.size).toBeGreaterThan(15);
    for (const name of ours) expect(sources, name).toContain(`'${name}'`);
  });
});
